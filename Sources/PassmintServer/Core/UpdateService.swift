import Foundation
import Logging
public import Passmint
public import PassmintStore

/// The issuer changing a pass: new data, images and/or the voided flag, a new version, and a push owed to every
/// device registered for it, committed together; the answer comes right after the commit and the ``PushQueue``
/// delivers the pushes. A request that changes nothing leaves the pass and its devices alone: Apple asks for a push
/// only when a pass actually changed.
public struct UpdateService: Sendable {
    let store: any PassStore
    let renderer: PassRenderer
    let publisher: PassPublisher
    let logger: Logger

    /// Merges `data` into the pass's data (its serial number and token stay) and/or sets `voided`. The pass's data is
    /// parsed once, the new version is checked before it is stored and signed while the store commits, and the devices
    /// owed a push are the ones registered when the change committed (in the same transaction).
    ///
    /// `images` (`{"thumbnail@2x": "<base64 PNG>", "strip": null}`) replace the pass's own images of those slots, or
    /// drop them (null) so the template's show again.
    ///
    /// `signs: false` (bulk changes) checks the new version without signing it: it is signed when a device or a link
    /// asks for it.
    public func update(
        passTypeIdentifier: String, serialNumber: String, data: JSONObject?, voided: Bool?, images: JSONObject? = nil,
        signs: Bool = true
    ) async throws -> PassMetadata {
        let upload: PassImageLibrary.Upload? = if let images { try await renderer.images.decode(images) } else { nil }
        guard let current = try await store.pass(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber) else {
            throw ServiceFailure.notFound
        }
        let original = (try? JSONParser.value(Array(current.dataJSON.utf8)).objectValue) ?? JSONObject()
        var merged = original
        // Text where the template wants a number or a boolean ("1250" from a CSV) is converted, as `batch` does.
        let typed = try data.map { data throws(ServiceFailure) in try renderer.templates.template(for: current).typed(data) }
        for member in typed ?? JSONObject()
        where member.key != "serialNumber" && member.key != "authenticationToken" && !member.key.hasPrefix(PassImageLibrary.keyPrefix) {
            merged[member.key] = member.value
        }
        for member in upload?.members ?? JSONObject() { merged[member.key] = member.value == .null ? JSONValue?.none : member.value }
        var candidate = current
        candidate.voided = voided ?? current.voided
        let metadata: Logger.Metadata = ["passTypeIdentifier": "\(passTypeIdentifier)", "serialNumber": "\(serialNumber)"]
        if merged == original && candidate.voided == current.voided {
            logger.info("pass update changed nothing; not pushed", metadata: metadata)
            let registrations = try await store.registrations(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
            return PassMetadata(pass: current, data: original, registrations: registrations.count, changed: false)
        }
        candidate.dataJSON = JSONWriter.string(.object(merged), style: .compact)
        let change: PassChange
        if signs {
            let prepared = try await renderer.prepare(candidate, data: merged)  // refuse data that does not make a valid pass
            async let signing = renderer.sign(prepared)  // signed while the store commits
            change = try await commit(candidate, images: upload?.images ?? [])
            publisher.publish(change, signed: try await signing.archive)
        } else {
            try await renderer.check(candidate, data: merged)
            change = try await commit(candidate, images: upload?.images ?? [])
            publisher.publish(change)
        }
        let queued = Set(change.registrations.map(\.pushToken)).count
        logger.info("pass updated", metadata: metadata.merging(["tag": "\(change.pass.updateTag)", "pushesOwed": "\(queued)"]) { $1 })
        return PassMetadata(pass: change.pass, data: merged, registrations: change.registrations.count, queuedPushes: queued, changed: true)
    }

    private func commit(_ candidate: StoredPass, images: [StoredImage]) async throws -> PassChange {
        try await store.storeImages(images)  // before the pass that names them
        let committed = try await store.update(
            passTypeIdentifier: candidate.passTypeIdentifier, serialNumber: candidate.serialNumber, dataJSON: candidate.dataJSON,
            voided: candidate.voided)
        guard let committed else { throw ServiceFailure.notFound }
        return committed
    }

    /// A new version of a pass whose template changed: checked against the template as it is now, then given the
    /// next tag, with a push owed to its devices. The pushes it owes.
    public func republish(_ key: PassKey) async throws -> Int {
        guard let current = try await store.pass(passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber) else {
            throw ServiceFailure.notFound
        }
        try await renderer.check(current)
        let committed = try await store.change(passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber, .republish)
        guard let change = committed else { throw ServiceFailure.notFound }
        publisher.publish(change)
        return Set(change.registrations.map(\.pushToken)).count
    }
}
