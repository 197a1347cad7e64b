import Passmint
public import PassmintBatch
public import PassmintStore

/// Records the passes `passmint batch --register` writes in the service's store, so that the service can update and
/// push them later.
public struct BatchRegistration: Sendable {
    let store: any PassStore
    /// The template's name as the service knows it (the folder name without `.pass`).
    let template: String

    public init(store: any PassStore, template: String) {
        self.store = store
        self.template = template
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
            authenticationToken: issued.authenticationToken, template: template, dataJSON: JSONWriter.string(.object(data), style: .compact)
        )
        return (pass, images)
    }

    /// Records a chunk of rows in one transaction (lazy issuing: `passmint batch --register … --no-files`), with the
    /// images they use, each stored once. A serial recorded already (the import run again) is kept as it is, with its
    /// token: PATCH it to change it.
    public func recordMany(_ passes: [BatchRunner.IssuedPass]) async throws -> [BatchRunner.RecordOutcome] {
        var images: [String: StoredImage] = [:]
        var stored: [StoredPass] = []
        stored.reserveCapacity(passes.count)
        for issued in passes {
            let (pass, passImages) = self.stored(issued)
            stored.append(pass)
            for image in passImages { images[image.sha256] = image }
        }
        let outcomes = try await store.insert(stored, images: Array(images.values))
        return outcomes.map { outcome in
            switch outcome {
            case .inserted: .recorded
            case .existed(let token): .existing(authenticationToken: token)
            }
        }
    }

    /// Records a pass of the batch. A serial already recorded with the same token is fine (a resumed batch; its data
    /// is replaced when the row changed); with another token it is an error, and the stored pass is left as it is.
    public func record(_ issued: BatchRunner.IssuedPass) async throws {
        let (pass, images) = stored(issued)
        do {
            _ = try await store.insert(order: [pass], images: images)  // the images in the pass's transaction
        } catch let error as PassStoreError where error.kind == .duplicate {
            let existing = try await store.pass(passTypeIdentifier: issued.passTypeIdentifier, serialNumber: issued.serialNumber)
            guard let existing, existing.authenticationToken == issued.authenticationToken else {
                throw PassmintError(.invalidData, "serial \(issued.serialNumber) is already in the store with another authentication token")
            }
            // A resumed batch whose row changed: the store gets the row's new data, as the pass file did.
            if existing.dataJSON != pass.dataJSON {
                _ = try await store.update(
                    passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber, dataJSON: pass.dataJSON,
                    voided: existing.voided)
            }
        }
    }
}
