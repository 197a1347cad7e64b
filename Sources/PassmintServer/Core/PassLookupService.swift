package import Passmint
import PassmintStore

/// The issuer's view of a pass (or an order) it issued.
package struct PassLookupService: Sendable {
    let store: any PassStore

    /// Whether the service issues for Google Wallet (then a lookup says where the pass's object stands).
    let google: Bool

    /// The pass (or order: `kind`) with its registrations count, where each device's push stands, and a pass's Google
    /// object's patch; 404 when there is none of that kind.
    package func metadata(
        _ kind: WalletWebService.Kind = .pass, passTypeIdentifier: String, serialNumber: String
    ) async throws -> PassMetadata {
        let pass = try await store.existing(kind, passTypeIdentifier, serialNumber)
        let pushes = try await store.pushStates(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        var metadata = PassMetadata(pass: pass, data: PassRenderer.data(pass.dataJSON), registrations: pushes.count, pushes: pushes)
        if google, kind == .pass {
            metadata.google = try await store.googleObjectState(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        }
        return metadata
    }
}
