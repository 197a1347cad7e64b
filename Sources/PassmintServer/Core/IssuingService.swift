import Foundation
import Logging
public import Passmint
public import PassmintStore

/// Issues passes from a template and data: one at a time, or a multi-ticket order all or nothing. A pass is checked
/// before it is stored, and signed while the store commits.
public struct IssuingService: Sendable {
    let templates: TemplateCatalog
    let renderer: PassRenderer
    let store: any PassStore
    let signedPasses: SignedPassCache
    let logger: Logger

    /// A pass as issued: stored, with its data and signed bytes.
    public struct Issued: Sendable {
        public var pass: StoredPass
        public var data: JSONObject
        public var archive: [UInt8]
    }

    /// Issues a pass; the serial number comes from the data (or is generated), the token too.
    ///
    /// `images` (`{"thumbnail@2x": "<base64 PNG>"}`) are the pass's own images, over the template's of those slots.
    public func issue(template name: String, data: JSONObject, images: JSONObject? = nil) async throws -> Issued {
        // Check first: data that does not make a valid pass is never stored. Then sign while the store commits (from
        // here only OpenSSL or libzip can fail, and the stored pass is signed again on its first fetch if they did).
        let upload: PassImageLibrary.Upload? = if let images { try await renderer.images.decode(images) } else { nil }
        var values = data
        for member in upload?.members ?? JSONObject() where member.value != .null { values[member.key] = member.value }
        let (pass, checked, prepared) = try await newPass(template: name, data: values)
        async let signing = renderer.sign(prepared)
        try await store.storeImages(upload?.images ?? [])  // before the pass that names them
        let stored = try await insert(pass)
        let built = try await signing
        // The pass does not depend on its tag: the bytes built before the insert are this tag's latest pass.
        signedPasses.remember(built.archive, for: stored)
        return Issued(pass: stored, data: checked, archive: built.archive)
    }

    /// One pass of a multi-ticket order.
    public struct Order: Sendable {
        public var template: String
        public var data: JSONObject

        public init(template: String, data: JSONObject) {
            self.template = template
            self.data = data
        }
    }

    /// Issues the passes of a multi-ticket order, all or none: every pass is rendered, checked and signed, and the
    /// bundle (Passmint's `PassBundle`, entries named after the serial numbers) made, before any is stored; if storing one
    /// fails (a serial that exists), those stored before it are taken back. Errors name the order's index
    /// (`passes[2]: …`). Returns the bundle.
    public func issue(orders: [Order]) async throws -> [UInt8] {
        var built: [(pass: StoredPass, archive: [UInt8])] = []
        var serials: Set<String> = []
        for (index, order) in orders.enumerated() {
            try await Self.naming(index) {
                let (pass, _, prepared) = try await newPass(template: order.template, data: order.data)
                guard serials.insert(pass.serialNumber).inserted else {
                    throw ServiceFailure.badRequest("serial number \(pass.serialNumber) appears twice in this order")
                }
                built.append((pass, try renderer.sign(prepared).archive))
            }
        }
        let bundle: [UInt8]
        do {
            let items = built.map { PassBundle.Item(name: SerialFileName.fileName(for: $0.pass.serialNumber), archive: $0.archive) }
            bundle = try PassBundle.make(items)
        } catch {
            throw ServiceFailure.unprocessable(templates.redacted(error.message))
        }
        var stored: [StoredPass] = []
        for (index, item) in built.enumerated() {
            do {
                let pass = try await Self.naming(index) { try await insert(item.pass) }
                signedPasses.remember(item.archive, for: pass)
                stored.append(pass)
            } catch {
                await takeBack(stored)
                throw error
            }
        }
        return bundle
    }

    /// A new pass from a template and data, rendered and checked but not stored: the serial number comes from the
    /// data (or is generated), the token too (or is generated).
    private func newPass(template name: String, data: JSONObject) async throws -> (StoredPass, JSONObject, PreparedPass) {
        _ = try templates.template(named: name)  // an unknown template is a bad request before anything else
        var values = data
        let serial = values["serialNumber"]?.stringValue ?? values["serialNumber"]?.numberValue?.text ?? UUID().uuidString.lowercased()
        guard PathComponent.isValid(serial) else { throw ServiceFailure.badRequest("serialNumber must be 1–128 URL-safe characters") }
        let token = values["authenticationToken"]?.stringValue ?? AuthenticationToken.make()
        guard token.count >= 16 else { throw ServiceFailure.badRequest("authenticationToken must have at least 16 characters") }
        values["serialNumber"] = .string(serial)
        values["authenticationToken"] = .string(token)
        var pass = StoredPass(
            passTypeIdentifier: "", serialNumber: serial, authenticationToken: token, template: name,
            dataJSON: JSONWriter.string(.object(values), style: .compact))
        let prepared = try await renderer.prepare(pass, data: values)
        pass.passTypeIdentifier = prepared.passTypeIdentifier
        return (pass, values, prepared)
    }

    private func insert(_ pass: StoredPass) async throws -> StoredPass {
        do {
            return try await store.insert(pass)
        } catch let error as PassStoreError where error.kind == .duplicate {
            throw ServiceFailure.conflict("a pass with serial number \(pass.serialNumber) already exists; PATCH it to change it")
        }
    }

    /// Removes the passes of an order that failed as a whole (nobody received them).
    private func takeBack(_ passes: [StoredPass]) async {
        for pass in passes {
            do {
                _ = try await store.delete(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber)
            } catch {
                logger.error(
                    "cannot take back a pass of a failed order", metadata: ["serialNumber": "\(pass.serialNumber)", "error": "\(error)"])
            }
        }
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
