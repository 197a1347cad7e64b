package import NIOCore
import Passmint
package import PassmintStore

/// What a device downloads: the signed bytes of a pass (or an order) at its current tag, from ``SignedPassCache`` or
/// signed once.
package struct LatestPassService: Sendable {
    let renderer: PassRenderer
    let signedPasses: SignedPassCache
    let events: PassEventLog

    /// The signed bytes of a stored pass or order at its current tag, in the buffer the cache keeps (answers share it).
    package func latestPass(_ pass: StoredPass) async throws(ServiceFailure) -> ByteBuffer {
        if let bytes = signedPasses.bytes(for: pass) { return bytes }
        return signedPasses.remember(try await renderer.archive(pass), for: pass)
    }

    /// What a device fetching its pass gets: ``latestPass(_:)``, recorded as `fetched` (with when that version was
    /// made) before it is answered.
    package func deviceFetch(_ pass: StoredPass) async throws -> ByteBuffer {
        let bytes = try await latestPass(pass)
        try await events.record(.fetched, pass, changeAt: pass.updatedAt)
        return bytes
    }
}
