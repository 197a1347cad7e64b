import Foundation

/// Runs blocking work (a socket call, a subprocess such as openssl, psql or Chromium, which may take many seconds) on a
/// thread of its own and awaits it, so that the wait does not hold one of the few threads Swift concurrency runs every
/// test on (two on a two-core machine): the service tests running at the same time keep their threads.
public func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}

/// ``offPool(_:)`` for work that throws.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await offPool { Result { try work() } }.get()
}
