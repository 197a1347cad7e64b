import Foundation

/// Runs blocking work (a subprocess such as Chromium, which may take many seconds) on a thread of its own and awaits
/// it, so that the wait does not hold one of the few threads Swift concurrency runs every test on (two on a two-core
/// machine): the service tests running at the same time keep their threads.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
