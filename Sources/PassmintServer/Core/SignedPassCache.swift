import NIOCore
import PassmintStore
import Synchronization

/// The signed bytes of each pass's latest version, shared by every request (devices fetch the same version many
/// times, and the version just issued or updated was signed already): at most `byteLimit` bytes (`PassCache`).
package final class SignedPassCache: Sendable {
    private let cache: Mutex<PassCache>
    private let byteLimit: Int

    package init(byteLimit: Int = 256 << 20) {
        self.byteLimit = byteLimit
        cache = Mutex(PassCache(byteLimit: byteLimit))
    }

    /// Forgets every pass kept (their template changed under them).
    func removeAll() { cache.withLock { $0 = PassCache(byteLimit: byteLimit) } }

    /// The bytes of `pass` at its update tag, if they are kept: a buffer every response shares (no copy per request).
    func bytes(for pass: StoredPass) -> ByteBuffer? { cache.withLock { $0.bytes(for: pass) } }

    /// Keeps the signed bytes of `pass` at its tag, so devices fetching it do not make it sign again; the buffer
    /// kept is the one returned.
    @discardableResult
    func remember(_ archive: [UInt8], for pass: StoredPass) -> ByteBuffer {
        let buffer = ByteBuffer(bytes: archive)
        cache.withLock { $0.store(buffer, for: pass) }
        return buffer
    }
}
