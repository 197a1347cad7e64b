import Foundation
import HTTPTypes
import Logging
package import Passmint
import PassmintStore

/// The issuer's side of Wallet orders: issue an order from a template and data, change it (its data merged, made
/// from the version read and committed only if the order is still at it, with a push owed to every registered device
/// in the same transaction), and read it with where its pushes stand. Changes racing for one order are each made
/// again from the version now stored until they commit, so none is lost.
package struct OrderService: Sendable {
    let store: any PassStore
    let renderer: OrderRenderer
    let publisher: PassPublisher
    let clock: @Sendable () -> Date
    let logger: Logger

    /// Keys of the data the service writes itself: they cannot be given.
    static let ownedKeys = ["orderTypeIdentifier", "authenticationToken", "updatedAt"]

    /// An order as issued: stored, with its signed bytes.
    package struct Issued: Sendable {
        package var metadata: PassMetadata
        package var archive: [UInt8]
    }

    /// Issues an order of `template` with `data`; its `orderIdentifier` comes from the data (or is generated), its token
    /// is generated, `createdAt` is now unless the data gives it. Checked and signed before it is stored.
    package func issue(template name: String, data: JSONObject) async throws -> Issued {
        if let key = Self.ownedKeys.first(where: { data[$0] != nil }) {
            throw ServiceFailure.badRequest("data.\(key) is written by the service; leave it out")
        }
        var values = data
        let id = values["orderIdentifier"]?.stringValue ?? UUID().uuidString.lowercased()
        guard PathComponent.isValid(id) else { throw ServiceFailure.badRequest("orderIdentifier must be 1–128 URL-safe characters") }
        values["orderIdentifier"] = nil
        if values["createdAt"] == nil {
            values["createdAt"] = .string(RFC3339Date.string(from: StoredPass.nextUpdateDate(after: nil, now: clock())))
        }
        let type = try renderer.orderType(template: name, data: values)
        let dataJSON = JSONWriter.string(.object(values), style: .compact)
        let draft = StoredPass(
            passTypeIdentifier: type, serialNumber: id, authenticationToken: AuthenticationToken.make(),
            template: OrderTemplateCatalog.storedName(name), dataJSON: dataJSON
        ).firstVersion(tag: 0, now: clock())
        var built = try renderer.build(draft, data: values)  // data that does not make a valid order is never stored
        let stored: StoredPass
        do {
            stored = try await store.insert(draft)
        } catch let error as PassStoreError where error.code == .duplicate {
            throw ServiceFailure.conflict("an order \(type) / \(id) already exists; PATCH it to change it")
        }
        if stored.updatedAt != draft.updatedAt { built = try renderer.build(stored, data: values) }
        logger.info("order issued", metadata: ["orderTypeIdentifier": "\(type)", "orderIdentifier": "\(id)"])
        return Issued(metadata: PassMetadata(pass: stored, data: values, registrations: 0), archive: built.archive)
    }

    /// Merges `data` into the order's data (a member set to null is removed). With `ifMatch` (the tags of an
    /// `If-Match` header) the change is made only while the order is at one of these versions (412 otherwise).
    package func update(orderTypeIdentifier type: String, orderIdentifier id: String, data: JSONObject, ifMatch: Set<Int64>?) async throws
        -> PassMetadata
    {
        for key in Self.ownedKeys + ["orderIdentifier"] where data[key] != nil {
            throw ServiceFailure.badRequest("data.\(key) is written by the service; leave it out")
        }
        return try await DocumentChange.retrying(.order, id) {
            let current = try await store.existing(.order, type, id)
            if let ifMatch, !ifMatch.contains(current.updateTag) {
                throw ServiceFailure.preconditionFailed(tag: current.updateTag, what: "order")
            }
            let original = OrderRenderer.data(current.dataJSON)
            var merged = original
            for member in data { merged[member.key] = member.value == .null ? nil : member.value }
            if merged == original {
                let registrations = try await store.registrations(passTypeIdentifier: type, serialNumber: id)
                return PassMetadata(pass: current, data: original, registrations: registrations.count, queuedPushes: 0, changed: false)
            }
            let text = JSONWriter.string(.object(merged), style: .compact)
            var next = current
            next.dataJSON = text
            try check(next.nextVersion(tag: current.updateTag + 1, now: clock()), data: merged, after: current)
            // Stale when another change committed after this one read the order: made again from the one stored (with
            // If-Match, the next read answers 412 with the version it is at, unless If-Match names that one too).
            let committed = try await store.change(
                passTypeIdentifier: type, serialNumber: id, .update(dataJSON: text, voided: nil), basedOn: current.updateTag)
            guard let change = committed else { throw ServiceFailure.notFound }
            let queued = Set(change.registrations.map(\.pushToken)).count
            publisher.publish(change)
            logger.info(
                "order updated", metadata: ["orderIdentifier": "\(id)", "tag": "\(change.pass.updateTag)", "pushesOwed": "\(queued)"])
            return PassMetadata(
                pass: change.pass, data: merged, registrations: change.registrations.count, queuedPushes: queued, changed: change.changed)
        }
    }

    /// Refuses (422) a next version that does not build, or that cannot follow `previous` (a completed or cancelled
    /// order open again, a delivered shipment back on its way: ``OrderLinter/lint(json:previous:)``).
    private func check(_ next: StoredPass, data: JSONObject, after previous: StoredPass) throws(ServiceFailure) {
        _ = try renderer.build(next, data: data)
        let before = try renderer.orderJSON(previous, data: OrderRenderer.data(previous.dataJSON))
        let errors = OrderLinter.lint(json: try renderer.orderJSON(next, data: data), previous: before).filter { $0.severity == .error }
        guard errors.isEmpty else {
            let lines = errors.map { "\($0.path): \($0.message) [\($0.code)] (fix: \($0.fix))" }
            throw .unprocessable(
                "order \(next.serialNumber) cannot change this way; nothing was changed:\n" + lines.joined(separator: "\n"))
        }
    }

    /// The order with its data, registrations and each device's push state; 404 when there is none.
    package func metadata(orderTypeIdentifier type: String, orderIdentifier id: String) async throws -> PassMetadata {
        let order = try await store.existing(.order, type, id)
        let pushes = try await store.pushStates(passTypeIdentifier: type, serialNumber: id)
        return PassMetadata(pass: order, data: OrderRenderer.data(order.dataJSON), registrations: pushes.count, pushes: pushes)
    }

}
