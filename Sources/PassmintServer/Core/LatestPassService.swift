import Passmint
public import PassmintStore

/// What a device downloads: the signed bytes of a pass at its current tag, from ``SignedPassCache`` or signed once.
public struct LatestPassService: Sendable {
    let renderer: PassRenderer
    let signedPasses: SignedPassCache

    /// The signed bytes of a stored pass at its current tag.
    public func latestPass(_ pass: StoredPass) async throws(ServiceFailure) -> [UInt8] {
        if let bytes = signedPasses.bytes(for: pass) { return bytes }
        let bytes = try await renderer.build(pass).archive
        signedPasses.remember(bytes, for: pass)
        return bytes
    }
}
