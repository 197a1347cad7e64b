import Foundation
import Logging
package import Passmint
package import PassmintStore

/// The issuer changing a pass: new data, images and/or the voided flag, a new version, and a push owed to every
/// device registered for it, committed together; the answer comes right after the commit and the ``PushQueue``
/// delivers the pushes. A request that changes nothing leaves the pass and its devices alone: Apple asks for a push
/// only when a pass actually changed.
///
/// Changes to one pass may arrive at the same moment on any node. Each is made from the version it read and committed
/// only if the pass is still at that version (the store compares its tag in the write transaction); when another
/// change came first, it is made again from the version now stored, and checked again. So no change is lost, and the
/// signed bytes kept for a version are those of that version.
package struct UpdateService: Sendable {
    let store: any PassStore
    let renderer: PassRenderer
    let publisher: PassPublisher
    let logger: Logger

    /// Merges `data` into the pass's data (its serial number and token stay) and/or sets `voided` (left as stored
    /// when nil). The pass's data is parsed once, the new version is checked before it is stored and signed while the
    /// store commits, and the devices owed a push are the ones registered when the change committed (in the same
    /// transaction).
    ///
    /// `images` (`{"thumbnail@2x": "<base64 PNG>", "strip": null}`) replace the pass's own images of those slots, or
    /// drop them (null) so the template's show again; they are stored in the transaction of the pass that names them.
    ///
    /// `ifMatch` (the tags of an `If-Match` header): the change is made only if the pass is at one of these versions,
    /// and refused with 412 otherwise (also when another change commits before it).
    ///
    /// `signs: false` (bulk changes) checks the new version without signing it: it is signed when a device or a link
    /// asks for it.
    ///
    /// `purgeUnused` (a publish's `"purgeUnused"`): the data keys the pass's template does not use are dropped (a
    /// batch's unused columns stored by an earlier version); its images and serial stay.
    ///
    /// `unvoid`: a change that sets `voided` to false on a voided pass is refused (409 `pass-voided`) unless it says so
    /// (`?unvoid=true`): un-voiding makes the pass valid again on every device. An erased pass takes no change (410
    /// `pass-erased`).
    ///
    /// `read`: the pass as the caller read it already (a bulk update reads a chunk's passes at once), made from on the
    /// first attempt instead of reading it again; when it is no longer the stored version, the commit finds it stale
    /// and the change is made again from the version stored.
    ///
    /// `kind` `.order`: a Wallet order's change (only `data`: a member set to null is removed, the keys the service
    /// writes refused), refused (422) when the new version does not build or cannot follow the stored one (a completed
    /// or cancelled order open again, a delivered shipment back on its way: ``OrderLinter/lint(json:previous:)``).
    package func update(
        _ kind: WalletWebService.Kind = .pass, passTypeIdentifier: String, serialNumber: String, data: JSONObject?, voided: Bool?,
        images: JSONObject? = nil, ifMatch: Set<Int64>? = nil, signs: Bool = true, read: StoredPass? = nil, purgeUnused: Bool = false,
        unvoid: Bool = false, templateVersion: String? = nil
    ) async throws -> PassMetadata {
        let metadata: Logger.Metadata = [kind.typeIdentifierName: "\(passTypeIdentifier)", kind.identifierName: "\(serialNumber)"]
        if kind == .order, let key = (IssuingService.orderOwnedKeys + ["orderIdentifier"]).first(where: { data?[$0] != nil }) {
            throw ServiceFailure.badRequest("data.\(key) is written by the service; leave it out")
        }
        if let data, kind == .pass { try DataKeys.check(data) }
        var upload: PassImageLibrary.Upload?
        var known = read
        return try await DocumentChange.retrying(kind, serialNumber) {
            var current = known
            if known == nil { current = try await store.existing(kind, passTypeIdentifier, serialNumber) }
            known = nil
            guard let current else { throw ServiceFailure.notFound }
            if let erasedAt = current.erasedAt { throw ServiceFailure.erased(serialNumber, at: erasedAt) }
            if current.voided, voided == false, !unvoid { throw ServiceFailure.unvoidNotAsked(serialNumber) }
            // Decoded once, and only for a pass that exists: a line naming no pass costs no decoding and fills no cache.
            if upload == nil, let images { upload = try await renderer.images.decode(images) }
            if let ifMatch, !ifMatch.contains(current.updateTag) {
                throw ServiceFailure.preconditionFailed(tag: current.updateTag, what: kind.rawValue)
            }
            let original = (try? JSONParser.value(Array(current.dataJSON.utf8)).objectValue) ?? JSONObject()
            var target = current
            target.templateVersion = templateVersion ?? current.templateVersion
            let merged = try await merge(data, upload, into: original, of: target, purgeUnused: purgeUnused)
            if merged == original && (voided ?? current.voided) == current.voided {
                // A bulk change's lines log at debug: its job logs one summary (a national campaign is millions of lines).
                logger.log(level: signs ? .info : .debug, "\(kind) update changed nothing; not pushed", metadata: metadata)
                let registrations = try await store.registrations(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
                return PassMetadata(
                    pass: current, data: original, registrations: registrations.count, queuedPushes: kind == .order ? 0 : nil,
                    changed: false)
            }
            let edit = PassEdit.update(
                dataJSON: merged == original ? nil : JSONWriter.string(.object(merged), style: .compact), voided: voided,
                images: upload?.images ?? [], templateVersion: templateVersion)
            let candidate = try edit.applied(to: current) ?? current
            // Stale (or erased) when another change committed after this one read the pass: made again from the version
            // now stored (with If-Match, the next read answers 412 with the version it is at, unless If-Match names
            // that one; an erasure, 410).
            let change = try await commit(candidate, edit, after: current, data: merged, signs: signs)
            let queued = Set(change.registrations.map(\.pushToken)).count
            logger.log(
                level: signs ? .info : .debug, "\(kind) updated",
                metadata: metadata.merging(["tag": "\(change.pass.updateTag)", "pushesOwed": "\(queued)"]) { $1 })
            return PassMetadata(
                pass: change.pass, data: merged, registrations: change.registrations.count, queuedPushes: queued, changed: true)
        }
    }

    /// The pass's data with `data` (typed as its template wants) and the uploaded images' members merged in.
    private func merge(
        _ data: JSONObject?, _ upload: PassImageLibrary.Upload?, into original: JSONObject, of pass: StoredPass, purgeUnused: Bool
    ) async throws(ServiceFailure) -> JSONObject {
        var merged = original
        if WalletWebService.Kind(typeIdentifier: pass.passTypeIdentifier) == .order {
            for member in data ?? JSONObject() { merged[member.key] = member.value == .null ? nil : member.value }
            return merged
        }
        let template = try await renderer.templates.template(for: pass)
        if purgeUnused {
            let used = Set(template.placeholders + ["serialNumber", "authenticationToken"])
            merged = JSONObject(merged.members.filter { used.contains($0.key) || $0.key.hasPrefix(PassImageLibrary.keyPrefix) })
        }
        // Text where the template wants a number or a boolean ("1250" from a CSV) is converted, as `batch` does.
        let typed = data.map(template.typed)
        for member in typed ?? JSONObject()
        where member.key != "serialNumber" && member.key != "authenticationToken" && !member.key.hasPrefix(PassImageLibrary.keyPrefix) {
            merged[member.key] = member.value
        }
        for member in upload?.members ?? JSONObject() { merged[member.key] = member.value == .null ? JSONValue?.none : member.value }
        return merged
    }

    /// Checks (and signs, with `signs`) `candidate`, then commits `edit` if the pass is still at `previous`'s tag. An order
    /// is built and checked against `previous` (its status transitions).
    private func commit(
        _ candidate: StoredPass, _ edit: PassEdit, after previous: StoredPass, data: JSONObject, signs: Bool
    ) async throws -> PassChange {
        let (type, serial, basedOn) = (candidate.passTypeIdentifier, candidate.serialNumber, previous.updateTag)
        if WalletWebService.Kind(typeIdentifier: type) == .order {
            let next = candidate.nextVersion(tag: basedOn + 1, now: renderer.clock())
            _ = try renderer.order(next, data: data)
            let lint = OrderLinter.lint(json: try renderer.orderJSON(next, data: data), previous: try renderer.orderJSON(previous))
            let errors = lint.filter { $0.severity == .error }.map { "\($0.path): \($0.message) [\($0.code)] (fix: \($0.fix))" }
            guard errors.isEmpty else {
                let lines = errors.joined(separator: "\n")
                throw ServiceFailure.unprocessable("order \(serial) cannot change this way; nothing was changed:\n" + lines)
            }
        } else if signs {
            let prepared = try await renderer.prepare(candidate, data: data)  // refuse data that does not make a valid pass
            async let signing = renderer.sign(prepared)  // signed while the store commits
            let committed = try await store.change(passTypeIdentifier: type, serialNumber: serial, edit, basedOn: basedOn)
            guard let change = committed else { throw ServiceFailure.notFound }
            publisher.publish(change, signed: try await signing.archive)
            return change
        } else {
            try await renderer.check(candidate, data: data)
        }
        let committed = try await store.change(passTypeIdentifier: type, serialNumber: serial, edit, basedOn: basedOn)
        guard let change = committed else { throw ServiceFailure.notFound }
        publisher.publish(change)
        return change
    }

    /// Erases a pass (a GDPR erasure): in one store transaction its data and personalization are removed, it becomes a
    /// voided version with a new tag, a push is owed to every device registered for it (and a patch to its Google
    /// object, which the voided version makes inactive), and the row stays as a tombstone (``StoredPass/erasedAt``).
    /// The voided version is built from blanks (``ErasedPassValues``) and signed before the commit; when it cannot be
    /// built the erasure is made all the same (a device then gets the failure when it fetches the pass).
    ///
    /// A pass erased already answers as it is, with nothing owed again (`changed` false). `ifMatch`: the erasure is
    /// made only if the pass is at one of these versions (412 otherwise); without it, it is made whatever version the
    /// pass is at, so that no change committing at the same moment can leave data behind.
    package func erase(passTypeIdentifier: String, serialNumber: String, ifMatch: Set<Int64>? = nil) async throws -> PassMetadata {
        try await DocumentChange.retrying(.pass, serialNumber) {
            let current = try await store.existing(.pass, passTypeIdentifier, serialNumber)
            if current.erasedAt != nil { return try await erased(current) }
            if let ifMatch, !ifMatch.contains(current.updateTag) { throw ServiceFailure.preconditionFailed(tag: current.updateTag) }
            let candidate = try PassEdit.erase.applied(to: current) ?? current
            var signed: BuiltPass?
            do {
                signed = try await renderer.build(candidate)
            } catch {
                logger.warning(
                    "the erased pass's voided version cannot be built; erasing it all the same",
                    metadata: ["serialNumber": "\(serialNumber)", "error": "\(error)"])
            }
            // Stale when If-Match named the version read and another change came first: the next read answers 412.
            let committed = try await store.change(
                passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, .erase,
                basedOn: ifMatch == nil ? nil : current.updateTag)
            guard let change = committed else { throw ServiceFailure.notFound }
            guard change.changed else { return try await erased(change.pass) }  // erased by another request meanwhile
            if let signed {
                publisher.publish(change, signed: signed.archive)
            } else {
                publisher.publish(change)
            }
            let queued = Set(change.registrations.map(\.pushToken)).count
            logger.info(
                "pass erased", metadata: ["serialNumber": "\(serialNumber)", "tag": "\(change.pass.updateTag)", "pushesOwed": "\(queued)"])
            return PassMetadata(
                pass: change.pass, data: JSONObject(), registrations: change.registrations.count, queuedPushes: queued, changed: true)
        }
    }

    /// The answer for a pass erased already: its tombstone, nothing changed.
    private func erased(_ pass: StoredPass) async throws -> PassMetadata {
        let registrations = try await store.registrations(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber)
        return PassMetadata(pass: pass, data: JSONObject(), registrations: registrations.count, changed: false)
    }

    /// A new version of a pass at the template version `version` (the current version of its template when nil): checked
    /// against it, then moved to it with the next tag and a push owed to its devices (checked again when another change
    /// commits first). The pushes it owes.
    package func republish(_ key: PassKey, to version: String? = nil) async throws -> Int {
        try await DocumentChange.retrying(.pass, key.serialNumber) {
            guard var current = try await store.pass(passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber) else {
                throw ServiceFailure.notFound
            }
            let tag = current.updateTag
            var hash = version ?? ""
            if version == nil { hash = try await renderer.templates.version(named: current.template).hash }
            current.templateVersion = hash
            try await renderer.check(current)
            let committed = try await store.change(
                passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber, .republish(templateVersion: hash), basedOn: tag)
            guard let change = committed else { throw ServiceFailure.notFound }
            guard change.changed else { return 0 }  // an erased pass keeps its voided version
            publisher.publish(change)
            return Set(change.registrations.map(\.pushToken)).count
        }
    }
}
