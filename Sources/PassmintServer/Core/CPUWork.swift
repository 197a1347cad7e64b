import HTTPTypes
import NIOCore
import NIOPosix

/// A pool of threads of its own for work that keeps a core busy for a while: rendering a pass or a preview, decoding
/// images. On Swift's cooperative pool (one thread per core) a few such requests at once would leave no thread to
/// answer devices and `/health`; here they wait their turn, and the cooperative pool stays free to await them.
enum CPUWork {
    /// One thread per core, started once for the process and kept (a service has one).
    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(1, System.coreCount))
        pool.start()
        return pool
    }()

    /// Runs `body` on the pool and returns what it returns or throws.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws(ServiceFailure) -> T) async throws(ServiceFailure) -> T {
        let outcome: Result<T, ServiceFailure>
        do {
            outcome = try await pool.runIfActive { Result { () throws(ServiceFailure) in try body() } }
        } catch {
            throw ServiceFailure(.serviceUnavailable, "the service is shutting down: try again")
        }
        return try outcome.get()
    }
}
