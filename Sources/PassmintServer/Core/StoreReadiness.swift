import Synchronization

/// Opens once the store's migrations ran: what works on the store in the background (the push queue, the jobs) waits
/// for it, so that a fresh database is never read before its tables exist. A wait ends early when its task is
/// cancelled (a service that stops before the store was ready, e.g. because the migrations failed). Whether the store
/// answers after that is the store's own record (`PassStore.isReachable`, kept by ``StoreReachability``'s probe).
package final class StoreReadiness: Sendable {
    private struct State {
        var open = false
        var next = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    package init() {}

    /// The store is ready: every waiter goes on, and later waits return at once.
    package func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// How many tasks wait for the store now.
    package var waiting: Int { state.withLock { $0.waiters.count } }

    /// Returns true once ``open()`` was called, or false when the task was cancelled first.
    package func wait() async -> Bool {
        let id = state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let goOn = state.withLock { state -> Bool in
                    if state.open || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if goOn { continuation.resume() }
            }
            return state.withLock { $0.open }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
