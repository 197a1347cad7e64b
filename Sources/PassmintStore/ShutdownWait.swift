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
    /// `sleep` waits out the grace (a test's sees whether the timer was cancelled).
    package static func result<T: Sendable>(
        abandoningAtShutdown abandon: @escaping @Sendable () -> Bool = { true }, grace: Duration? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        onShutdown: @escaping @Sendable () -> Void = {}, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        let race = Race<T>()
        // A task of its own (it keeps the caller's graceful-shutdown signal): the wait below can end without it.
        let task = Task {
            do { race.finish(.success(try await work())) } catch { race.finish(.failure(error)) }
        }
        // The grace's timer, cancelled once the wait ends (the work ended first): it does not sleep on for the rest of
        // the grace. `ended` stops a timer started as the wait ends.
        let timer = Mutex<(ended: Bool, task: Task<Void, Never>?)>((false, nil))
        let result = await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await race.wait()
            } onGracefulShutdown: {
                onShutdown()
                guard abandon() else {
                    guard let grace else { return }
                    let sleeper = Task {
                        guard (try? await sleep(grace)) != nil else { return }
                        task.cancel()
                        race.finish(nil)
                    }
                    let kept = timer.withLock { timer -> Bool in
                        guard !timer.ended else { return false }
                        timer.task = sleeper
                        return true
                    }
                    if !kept { sleeper.cancel() }
                    return
                }
                task.cancel()
                race.finish(nil)
            }
        } onCancel: {
            // Cancelled (a service group stopping at once, e.g. the server could not bind): the work, a task of its
            // own, is not cancelled with the caller, so cancel it and end the wait.
            task.cancel()
            race.finish(nil)
        }
        let sleeper = timer.withLock { timer -> Task<Void, Never>? in
            timer.ended = true
            return timer.task.take()
        }
        sleeper?.cancel()
        return try result?.get()
    }

    /// Waits for `work` (a task of its own) at most `limit`, whether or not the caller is shutting down or cancelled
    /// (the last wait of a stop: its clients closing): nil when the limit came first, the work left to end on its own.
    package static func atMost(_ limit: Duration, _ work: @escaping @Sendable () async -> Void) async -> Void? {
        let race = Race<Void>()
        Task {
            await work()
            race.finish(.success(()))
        }
        let timer = Task {
            try? await Task.sleep(for: limit)
            race.finish(nil)
        }
        let result = await race.wait()
        timer.cancel()
        return try? result?.get()
    }
}

/// The first of several outcomes to come: a work's result, or nil (a shutdown, a cancellation or a time limit came
/// first). ``wait()`` returns it, however early or late it came.
private final class Race<T: Sendable>: Sendable {
    typealias Waiter = CheckedContinuation<Result<T, any Error>?, Never>
    /// The waiter, until an outcome resumes it; `ended` once one came (before the waiter too).
    private let state = Mutex<(waiter: Waiter?, ended: Result<T, any Error>??)>((nil, nil))

    /// Records the outcome, unless one came before.
    func finish(_ result: Result<T, any Error>?) {
        state.withLock { state -> Waiter? in
            guard state.ended == nil else { return nil }
            state.ended = .some(result)
            return state.waiter.take()
        }?.resume(returning: result)
    }

    /// The first outcome.
    func wait() async -> Result<T, any Error>? {
        await withCheckedContinuation { (waiter: Waiter) in
            let ended = state.withLock { state -> Result<T, any Error>?? in
                if state.ended == nil { state.waiter = waiter }
                return state.ended
            }
            if let ended { waiter.resume(returning: ended) }
        }
    }
}
