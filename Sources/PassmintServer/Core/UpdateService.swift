import Foundation
import Logging
public import Passmint
import PassmintStore

/// The issuer changing a pass: new data and/or the voided flag, a new version, and a push to every device
/// registered for it. A request that changes nothing leaves the pass and its devices alone: Apple asks for a push
/// only when a pass actually changed.
public struct UpdateService: Sendable {
    let store: any PassStore
    let renderer: PassRenderer
    let publisher: PassPublisher
    let logger: Logger

    /// Merges `data` into the pass's data (its serial number and token stay) and/or sets `voided`. The pass's data is
    /// parsed once, the new version is checked before it is stored and signed while the store commits, and the devices
    /// pushed are the ones registered when the change committed (read in the same transaction).
    ///
    /// `images` (`{"thumbnail@2x": "<base64 PNG>", "strip": null}`) replace the pass's own images of those slots, or
    /// drop them (null) so the template's show again.
    public func update(
        passTypeIdentifier: String, serialNumber: String, data: JSONObject?, voided: Bool?, images: JSONObject? = nil
    ) async throws -> PassMetadata {
        let upload = try images.map { images throws(ServiceFailure) in try renderer.images.decode(images) }
        guard let current = try await store.pass(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber) else {
            throw ServiceFailure.notFound
        }
        let original = (try? JSONParser.value(Array(current.dataJSON.utf8)).objectValue) ?? JSONObject()
        var merged = original
        for member in data ?? JSONObject()
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
            return PassMetadata(pass: current, data: original, registrations: registrations.count, push: nil, changed: false)
        }
        candidate.dataJSON = JSONWriter.string(.object(merged), style: .compact)
        let prepared = try await renderer.prepare(candidate, data: merged)  // refuse data that does not make a valid pass
        async let signing = renderer.sign(prepared)  // signed while the store commits
        try await store.storeImages(upload?.images ?? [])  // before the pass that names them
        let committed = try await store.update(
            passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, dataJSON: candidate.dataJSON, voided: candidate.voided)
        guard let change = committed else { throw ServiceFailure.notFound }
        let push = try await publisher.publish(change, signed: try await signing.archive)
        logger.info(
            "pass updated",
            metadata: metadata.merging(["tag": "\(change.pass.updateTag)", "pushed": "\(push.delivered)/\(push.outcomes.count)"]) { $1 })
        let gone = Set(push.unregisteredPushTokens)
        let registrations = change.registrations.filter { !gone.contains($0.pushToken) }.count
        return PassMetadata(pass: change.pass, data: merged, registrations: registrations, push: push, changed: true)
    }
}
