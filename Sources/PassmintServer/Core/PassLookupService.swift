import Passmint
import PassmintStore

/// The issuer's view of a pass it issued.
package struct PassLookupService: Sendable {
    let store: any PassStore

    /// Whether the service issues for Google Wallet (then a lookup says where the pass's object stands).
    let google: Bool

    /// The pass with its registrations count, where each device's push stands, and its Google object's patch.
    package func metadata(passTypeIdentifier: String, serialNumber: String) async throws -> PassMetadata {
        let pass = try await store.existing(.pass, passTypeIdentifier, serialNumber)
        let pushes = try await store.pushStates(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        var metadata = PassMetadata(pass: pass, registrations: pushes.count, pushes: pushes)
        if google {
            metadata.google = try await store.googleObjectState(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        }
        return metadata
    }
}
