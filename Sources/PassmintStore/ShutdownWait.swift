import ServiceLifecycle
import Synchronization

/// Background work a stopping node need not wait for. A store call that an outage's dropped connection holds may never
/// return, nor answer cancellation (seen with PostgreSQL: a query sent as its connection dropped reached no server and
/// was never failed): a node told to stop must not wait for it. What such work leaves undone stays owed in the store
/// (a push, a delivery) or is done again at the next start (a prune); a change feed simply stops following.
package enum ShutdownWait {
    /// Runs `work` in a task of its own and returns its result. At graceful shutdown `onShutdown` runs; when
    /// `abandon()` then holds, the work is cancelled and the wait ends at once with nil, the work left to end on its
    /// own. Otherwise the wait goes on until the work ends (it sees the shutdown itself), or with `grace`, at most that
    /// long before it is abandoned the same way. Cancelling the caller cancels the work and ends the wait with nil.
    package static func result<T: Sendable>(
        abandoningAtShutdown abandon: @escaping @Sendable () -> Bool = { true }, grace: Duration? = nil,
        onShutdown: @escaping @Sendable () -> Void = {}, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        typealias Waiter = CheckedContinuation<Result<T, any Error>?, Never>
        /// The waiter, until the work or the shutdown resumes it; `ended` once either came (before the waiter too).
        let state = Mutex<(waiter: Waiter?, ended: Result<T, any Error>??)>((nil, nil))
        let finish = { @Sendable (result: Result<T, any Error>?) in
            state.withLock { state -> Waiter? in
                guard state.ended == nil else { return nil }
                state.ended = .some(result)
                return state.waiter.take()
            }?.resume(returning: result)
        }
        // A task of its own (it keeps the caller's graceful-shutdown signal): the wait below can end without it.
        let task = Task {
            do { finish(.success(try await work())) } catch { finish(.failure(error)) }
        }
        let result = await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await withCheckedContinuation { (waiter: Waiter) in
                    let ended = state.withLock { state -> Result<T, any Error>?? in
                        if state.ended == nil { state.waiter = waiter }
                        return state.ended
                    }
                    if let ended { waiter.resume(returning: ended) }
                }
            } onGracefulShutdown: {
                onShutdown()
                guard abandon() else {
                    guard let grace else { return }
                    Task {
                        try? await Task.sleep(for: grace)
                        task.cancel()
                        finish(nil)
                    }
                    return
                }
                task.cancel()
                finish(nil)
            }
        } onCancel: {
            // Cancelled (a service group stopping at once, e.g. the server could not bind): the work, a task of its
            // own, is not cancelled with the caller, so cancel it and end the wait.
            task.cancel()
            finish(nil)
        }
        return try result?.get()
    }
}
