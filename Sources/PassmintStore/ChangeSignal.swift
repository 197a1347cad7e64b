import Synchronization

/// Lets tasks wait for a store's change generation to move (another process's or node's commit seen, a commit of
/// its own): the store rings it after each move, and each waiter checks its condition again.
package final class ChangeSignal: Sendable {
    private struct State {
        var rings: UInt64 = 0
        var next = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    package init() {}

    /// The generation moved: every waiter checks again.
    package func ring() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.rings &+= 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once `moved` holds, checking it after each ring, or once the task is cancelled.
    package func wait(until moved: () -> Bool) async {
        while !Task.isCancelled {
            let seen = state.withLock { $0.rings }
            if moved() { return }
            let id = state.withLock { state in
                defer { state.next += 1 }
                return state.next
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let goOn = state.withLock { state -> Bool in
                        if state.rings != seen || Task.isCancelled { return true }
                        state.waiters[id] = continuation
                        return false
                    }
                    if goOn { continuation.resume() }
                }
            } onCancel: {
                state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
            }
        }
    }
}
