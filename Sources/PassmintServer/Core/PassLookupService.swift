import PassmintStore

/// The issuer's view of a pass it issued.
public struct PassLookupService: Sendable {
    let store: any PassStore

    /// The pass with its registrations count and where each device's push stands.
    public func metadata(passTypeIdentifier: String, serialNumber: String) async throws -> PassMetadata {
        guard let pass = try await store.pass(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber) else {
            throw ServiceFailure.notFound
        }
        let pushes = try await store.pushStates(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        return PassMetadata(pass: pass, registrations: pushes.count, pushes: pushes)
    }
}
