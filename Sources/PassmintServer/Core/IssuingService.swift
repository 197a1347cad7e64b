import Foundation
import Logging
package import NIOCore
package import Passmint
package import PassmintStore

/// Issues passes from a template and data: one at a time, or a multi-ticket order all or nothing; and Wallet orders
/// (``issueOrder(template:data:)``). A pass is checked before it is stored, and signed while the store commits.
package struct IssuingService: Sendable {
    let templates: TemplateCatalog
    let renderer: PassRenderer
    let store: any PassStore
    let signedPasses: SignedPassCache
    let logger: Logger

    /// Keys of an order's data the service writes itself: they cannot be given.
    static let orderOwnedKeys = ["orderTypeIdentifier", "authenticationToken", "updatedAt"]

    /// A pass as issued: stored, with its data and signed bytes.
    package struct Issued: Sendable {
        package var pass: StoredPass
        package var data: JSONObject
        /// The buffer the signed-pass cache keeps: an answer sends it as it is (no copy of the archive per request).
        package var archive: ByteBuffer
    }

    /// Issues a pass; the serial number comes from the data (or is generated), the token too.
    ///
    /// `images` (`{"thumbnail@2x": "<base64 PNG>"}`) are the pass's own images, over the template's of those slots.
    package func issue(template name: String, data: JSONObject, images: JSONObject? = nil) async throws -> Issued {
        try await issue(try await prepare(template: name, data: data, images: images))
    }

    /// A pass rendered and checked, not stored yet (``prepare(template:data:images:)``): what a payment checks before
    /// it asks the processor, so that data that makes no pass is never paid for.
    package struct Prepared: Sendable {
        let pass: StoredPass
        let data: JSONObject
        let prepared: PreparedPass
        let images: [StoredImage]
    }

    /// Renders and checks a new pass without storing it; the serial number comes from the data (or is generated).
    package func prepare(template name: String, data: JSONObject, images: JSONObject? = nil) async throws -> Prepared {
        let (pass, checked, prepared, own) = try await newPass(template: name, data: data, images: images)
        return Prepared(pass: pass, data: checked, prepared: prepared, images: own)
    }

    /// Stores and signs a prepared pass; with `payment`, in the transaction that marks that payment issued.
    package func issue(_ new: Prepared, payment: PaymentSettlement? = nil) async throws -> Issued {
        // Checked first (prepare): data that does not make a valid pass is never stored. Then sign while the store
        // commits (from here only OpenSSL or libzip can fail, and the stored pass is signed again on its first fetch).
        async let signing = renderer.sign(new.prepared)
        let stored = try await insert([new.pass], images: new.images, payment: payment)[0]  // images with the pass naming them
        let built = try await signing
        // The pass does not depend on its tag: the bytes built before the insert are this tag's latest pass.
        return Issued(pass: stored, data: new.data, archive: signedPasses.remember(built.archive, for: stored))
    }

    /// Issues a Wallet order of `template` with `data`; its `orderIdentifier` comes from the data (or is generated), its
    /// token is generated, `createdAt` is now unless the data gives it. Checked and signed before it is stored.
    package func issueOrder(template name: String, data: JSONObject) async throws -> Issued {
        if let key = Self.orderOwnedKeys.first(where: { data[$0] != nil }) {
            throw ServiceFailure.badRequest("data.\(key) is written by the service; leave it out")
        }
        var values = data
        let id = values["orderIdentifier"]?.stringValue ?? UUID().uuidString.lowercased()
        guard PathComponent.isValid(id) else { throw ServiceFailure.badRequest("orderIdentifier must be 1–128 URL-safe characters") }
        values["orderIdentifier"] = nil
        if values["createdAt"] == nil {
            values["createdAt"] = .string(RFC3339Date.string(from: StoredPass.nextUpdateDate(after: nil, now: renderer.clock())))
        }
        let type = try renderer.orderType(template: name, data: values)
        let draft = StoredPass(
            passTypeIdentifier: type, serialNumber: id, authenticationToken: AuthenticationToken.make(),
            template: TemplateCatalog.orderName(name) + ".order", dataJSON: JSONWriter.string(.object(values), style: .compact)
        ).firstVersion(tag: 0, now: renderer.clock())
        var built = try renderer.order(draft, data: values)  // data that does not make a valid order is never stored
        let stored = try await insert([draft], images: [])[0]
        if stored.updatedAt != draft.updatedAt { built = try renderer.order(stored, data: values) }
        let archive = signedPasses.remember(built.archive, for: stored)
        logger.info("order issued", metadata: ["orderTypeIdentifier": "\(type)", "orderIdentifier": "\(id)"])
        return Issued(pass: stored, data: values, archive: archive)
    }

    /// One pass of a multi-ticket order.
    package struct Order: Sendable {
        package var template: String
        package var data: JSONObject
        /// The pass's own images (`{"thumbnail@2x": "<base64 PNG>"}`), as for a single pass.
        package var images: JSONObject?

        package init(template: String, data: JSONObject, images: JSONObject? = nil) {
            self.template = template
            self.data = data
            self.images = images
        }
    }

    /// A multi-ticket order as issued: the `.pkpasses` bundle, and each pass as issued, in the order's order.
    package struct IssuedBundle: Sendable {
        package var bundle: [UInt8]
        package var passes: [Issued]
    }

    /// Issues the passes of a multi-ticket order, all or none: every pass is rendered, checked and signed, and the
    /// bundle (Passmint's `PassBundle`, entries named after the serial numbers) made, before any is stored; then the
    /// passes and their images are stored in one transaction, so that a serial that exists stores none of them.
    /// Errors name the order's index (`passes[2]: …`).
    package func issue(orders: [Order]) async throws -> IssuedBundle {
        var built: [(pass: StoredPass, data: JSONObject, archive: [UInt8])] = []
        var images: [String: StoredImage] = [:]
        var serials: Set<String> = []
        for (index, order) in orders.enumerated() {
            try await Self.naming(index) {
                let (pass, data, prepared, own) = try await newPass(template: order.template, data: order.data, images: order.images)
                guard serials.insert(pass.serialNumber).inserted else {
                    throw ServiceFailure.badRequest("serial number \(pass.serialNumber) appears twice in this order")
                }
                for image in own { images[image.sha256] = image }
                built.append((pass, data, try renderer.sign(prepared).archive))
            }
        }
        let bundle: [UInt8]
        do {
            let items = built.map { PassBundle.Item(name: SerialFileName.fileName(for: $0.pass.serialNumber), archive: $0.archive) }
            bundle = try PassBundle.make(items)
        } catch {
            throw ServiceFailure.unprocessable(templates.redacted(error.message))
        }
        let passes = built.map(\.pass)
        let stored = try await insert(passes, images: images.values.sorted { $0.sha256 < $1.sha256 })
        return IssuedBundle(
            bundle: bundle,
            passes: zip(stored, built).map { Issued(pass: $0, data: $1.data, archive: signedPasses.remember($1.archive, for: $0)) })
    }

    /// A new pass from a template and data, rendered and checked but not stored: the serial number comes from the
    /// data (or is generated), the token too (or is generated).
    private func newPass(
        template name: String, data: JSONObject, images: JSONObject?
    ) async throws -> (StoredPass, JSONObject, PreparedPass, [StoredImage]) {
        let version = try await templates.version(named: name)  // an unknown template is a bad request before anything else
        try DataKeys.check(data)
        let upload: PassImageLibrary.Upload? = if let images { try await renderer.images.decode(images) } else { nil }
        var values = data
        for member in upload?.members ?? JSONObject() where member.value != .null { values[member.key] = member.value }
        let serial = values["serialNumber"]?.stringValue ?? values["serialNumber"]?.numberValue?.text ?? UUID().uuidString.lowercased()
        guard PathComponent.isValid(serial) else { throw ServiceFailure.badRequest("serialNumber must be 1–128 URL-safe characters") }
        let token = values["authenticationToken"]?.stringValue ?? AuthenticationToken.make()
        guard token.count >= 16 else { throw ServiceFailure.badRequest("authenticationToken must have at least 16 characters") }
        values["serialNumber"] = .string(serial)
        values["authenticationToken"] = .string(token)
        var pass = StoredPass(
            passTypeIdentifier: "", serialNumber: serial, authenticationToken: token, template: TemplateCatalog.canonicalName(name),
            dataJSON: JSONWriter.string(.object(values), style: .compact), templateVersion: version.hash)
        let prepared = try await renderer.prepare(pass, data: values)
        pass.passTypeIdentifier = prepared.passTypeIdentifier
        return (pass, values, prepared, upload?.images ?? [])
    }

    /// Stores new passes (or an order) and their images in one transaction, all or none; a serial that exists is a
    /// conflict naming its place in the order when there are several.
    private func insert(_ passes: [StoredPass], images: [StoredImage], payment: PaymentSettlement? = nil) async throws -> [StoredPass] {
        do {
            return try await store.insert(order: passes, images: images, payment: payment)
        } catch let error as PassStoreError where error.code == .duplicate {
            let index = passes.firstIndex {
                $0.serialNumber == error.passKey?.serialNumber && $0.passTypeIdentifier == error.passKey?.passTypeIdentifier
            }
            var erasedAt: Date?
            if let key = error.passKey { erasedAt = try await stored(key)?.erasedAt }
            let conflict = taken(error.passKey, erased: erasedAt)
            guard passes.count > 1, let index else { throw conflict }
            throw conflict.prefixed("passes[\(index)]: ")
        }
    }

    /// Refuses a prepared pass whose serial is taken already, as its insert would (what a payment checks before it asks
    /// the processor; the insert still decides when another issue takes the serial meanwhile).
    func refuseTaken(_ new: Prepared) async throws {
        let key = PassKey(passTypeIdentifier: new.pass.passTypeIdentifier, serialNumber: new.pass.serialNumber)
        if let existing = try await stored(key) { throw taken(key, erased: existing.erasedAt) }
    }

    private func stored(_ key: PassKey) async throws -> StoredPass? {
        try await store.pass(passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber)
    }

    /// The conflict of a serial that exists: `pass-exists`, or the tombstone's when it was erased (never issued again).
    private func taken(_ key: PassKey?, erased erasedAt: Date?) -> ServiceFailure {
        let serial = key?.serialNumber ?? "?"
        if let erasedAt { return .serialErased(serial, at: erasedAt) }
        if let type = key?.passTypeIdentifier, WalletWebService.Kind(typeIdentifier: type) == .order {
            return .conflict("an order \(type) / \(serial) already exists; PATCH it to change it")
        }
        return .conflict("a pass with serial number \(serial) already exists; PATCH it to change it", code: "pass-exists")
    }

    /// Runs `body`, prefixing the message of a ``ServiceFailure`` with the order index it concerns.
    private static func naming<T>(_ index: Int, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let failure as ServiceFailure {
            throw failure.prefixed("passes[\(index)]: ")
        }
    }
}
