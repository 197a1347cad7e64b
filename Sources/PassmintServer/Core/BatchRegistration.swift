public import Passmint
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

    /// Records a pass of the batch. A serial already recorded with the same token is fine (a resumed batch); with
    /// another token it is an error, and the stored pass is left as it is.
    public func record(_ issued: BatchRunner.IssuedPass) async throws {
        let pass = StoredPass(
            passTypeIdentifier: issued.passTypeIdentifier, serialNumber: issued.serialNumber,
            authenticationToken: issued.authenticationToken, template: template,
            dataJSON: JSONWriter.string(.object(issued.data), style: .compact))
        do {
            _ = try await store.insert(pass)
        } catch let error as PassStoreError where error.kind == .duplicate {
            let existing = try await store.pass(passTypeIdentifier: issued.passTypeIdentifier, serialNumber: issued.serialNumber)
            guard existing?.authenticationToken == issued.authenticationToken else {
                throw PassmintError(.invalidData, "serial \(issued.serialNumber) is already in the store with another authentication token")
            }
        }
    }
}
