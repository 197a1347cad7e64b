package import Passmint
package import PassmintBatch
package import PassmintStore
import Synchronization

/// Records the passes `passmint batch --register` writes in the service's store, so that the service can update and
/// push them later.
package struct BatchRegistration: Sendable {
    let store: any PassStore
    /// The template's name as the service knows it (the folder name without `.pass`).
    let template: String
    /// The template version the batch renders from, stored before the first pass that names it; nil: the passes name
    /// none, and the service gives them the version its folder holds when it starts.
    let version: TemplateCatalog.Version?
    private let versionStored = VersionStored()

    /// Whether ``version`` was stored (once per run).
    private final class VersionStored: Sendable { let done = Mutex(false) }
    /// What the batch of this output folder last recorded for each serial; nil: every stored pass that differs from
    /// its row counts as changed at the service.
    let log: BatchRecordLog?

    package init(store: any PassStore, template: String, version: PassTemplate? = nil, log: BatchRecordLog? = nil) {
        self.store = store
        self.template = template
        self.version = version.map(TemplateCatalog.Version.init)
        self.log = log
    }

    /// The pass as the store keeps it: the row's data, and its own images named by content
    /// (`"image:thumbnail@2x": "sha256:<hex>"`, see ``PassImageLibrary``).
    func stored(_ issued: BatchRunner.IssuedPass) -> (pass: StoredPass, images: [StoredImage]) {
        var data = issued.data
        var images: [StoredImage] = []
        for file in issued.images.files {
            let sha256 = Digest.sha256Hex(file.bytes)
            data[PassImageLibrary.keyPrefix + String(file.path.dropLast(4))] = .string(PassImageLibrary.valuePrefix + sha256)
            images.append(StoredImage(sha256: sha256, bytes: file.bytes))
        }
        let pass = StoredPass(
            passTypeIdentifier: issued.passTypeIdentifier, serialNumber: issued.serialNumber,
            authenticationToken: issued.authenticationToken, template: template,
            dataJSON: JSONWriter.string(.object(data), style: .compact),
            templateVersion: version?.hash)
        return (pass, images)
    }

    /// Records a chunk of rows in one transaction (lazy issuing: `passmint batch --register … --no-files`), with the
    /// images they use, each stored once. A serial recorded already (the import run again) is kept as it is, with its
    /// token: PATCH it to change it.
    package func recordMany(_ passes: [BatchRunner.IssuedPass]) async throws -> [BatchRunner.RecordOutcome] {
        var images: [String: StoredImage] = [:]
        var stored: [StoredPass] = []
        stored.reserveCapacity(passes.count)
        for issued in passes {
            let (pass, passImages) = self.stored(issued)
            stored.append(pass)
            for image in passImages { images[image.sha256] = image }
        }
        try await storeVersion()
        let outcomes = try await store.insert(stored, images: Array(images.values))
        return outcomes.map { outcome in
            switch outcome {
            case .inserted: .recorded
            case .existed(let token): .existing(authenticationToken: token)
            }
        }
    }

    /// What the store holds for a pass an earlier run of the batch made: nothing, the row's data already, what the
    /// batch recorded last (``log``), or something else: then it changed at the service since (an `update`, a PATCH),
    /// and the batch must leave it. A serial stored with another token is an error.
    package func state(of issued: BatchRunner.IssuedPass) async throws -> BatchRunner.StoredState {
        guard let existing = try await store.pass(passTypeIdentifier: issued.passTypeIdentifier, serialNumber: issued.serialNumber) else {
            return .absent
        }
        try checkToken(of: existing, issued)
        let stored = BatchRecordLog.digest(ofDataJSON: existing.dataJSON)
        if stored == BatchRecordLog.digest(ofDataJSON: self.stored(issued).pass.dataJSON) { return .current }
        if let log, log.digest(of: issued.serialNumber) == stored { return .recordedByBatch(tag: existing.updateTag) }
        return .changedAtService
    }

    /// Records a pass of the batch, given the ``state(of:)`` read before it was made (nil: not read, the pass is new
    /// to this output folder). A new serial is inserted; a serial whose stored pass is still what the batch recorded
    /// last gets the row's data (a resumed batch whose row changed), compared and swapped at the tag read, so that a
    /// change made at the service meanwhile is kept. False when the pass changed at the service: it is left as the
    /// service has it. A serial stored with another token is an error.
    package func record(_ issued: BatchRunner.IssuedPass, state: BatchRunner.StoredState?) async throws -> Bool {
        let (pass, images) = stored(issued)
        let digest = BatchRecordLog.digest(ofDataJSON: pass.dataJSON)
        var state = state
        if state == nil || state == .absent {
            try await storeVersion()
            do {
                _ = try await store.insert(order: [pass], images: images)  // the images in the pass's transaction
                log?.note(serial: pass.serialNumber, digest: digest)
                return true
            } catch let error as PassStoreError where error.code == .duplicate {
                state = try await self.state(of: issued)
            }
        }
        switch state {
        case .current:
            log?.note(serial: pass.serialNumber, digest: digest)
            return true
        case .recordedByBatch(let tag):
            do {
                _ = try await store.change(
                    passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber,
                    .update(dataJSON: pass.dataJSON, voided: nil, images: images), basedOn: tag)
            } catch let error as PassStoreError where error.code == .stale {
                return false  // changed at the service between the read and this write
            }
            log?.note(serial: pass.serialNumber, digest: digest)
            return true
        case .changedAtService, .absent, nil: return false
        }
    }

    /// Stores ``version`` (a hash stored already is left as it is).
    private func storeVersion() async throws {
        guard let version, !versionStored.done.withLock({ $0 }) else { return }
        try await store.storeTemplateVersion(
            hash: version.hash, name: template, content: TemplateVersionJSON.content(version.template))
        versionStored.done.withLock { $0 = true }
    }

    private func checkToken(of existing: StoredPass, _ issued: BatchRunner.IssuedPass) throws(PassmintError) {
        guard existing.authenticationToken != issued.authenticationToken else { return }
        throw PassmintError(
            .invalidData,
            "serial \(issued.serialNumber) is already in the store with another authentication token: give the row another serial, "
                + "or resume the batch in the output folder that issued it so it keeps its token")
    }
}
