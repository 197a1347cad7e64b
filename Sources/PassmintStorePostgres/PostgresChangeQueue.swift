import PassmintStore
import Synchronization

/// The changes to passes asked of one node and not yet written, for ``PostgresPassStore``'s group commit: whoever
/// finds no writer free starts one (up to ``maximumWriters``), and each writer takes every change waiting (up to
/// ``maximumBatch``) into one transaction, until none waits.
final class PostgresChangeQueue: Sendable {
    /// One change asked for: ``PassStore/change(passTypeIdentifier:serialNumber:_:basedOn:)``'s arguments.
    struct Request: Sendable {
        let key: PassKey
        let edit: PassEdit
        let basedOn: Int64?
    }

    struct Waiting: Sendable {
        let request: Request
        let answer: CheckedContinuation<PassChange?, any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        var writers = 0
    }

    /// Transactions writing at once (each holds a connection while it writes).
    let maximumWriters: Int
    /// Changes in one transaction at most.
    let maximumBatch: Int
    private let state = Mutex(State())

    init(maximumWriters: Int = 4, maximumBatch: Int = 256) {
        self.maximumWriters = maximumWriters
        self.maximumBatch = maximumBatch
    }

    /// Queues a change; true when the caller is to start a writer (``next()`` until it returns nil).
    func enqueue(_ waiting: Waiting) -> Bool {
        state.withLock { state in
            state.waiting.append(waiting)
            guard state.writers < maximumWriters else { return false }
            state.writers += 1
            return true
        }
    }

    /// The changes for a writer's next transaction, in the order they were asked for; nil when none waits (then the
    /// writer stops).
    func next() -> [Waiting]? {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.writers -= 1
                return nil
            }
            let batch = Array(state.waiting.prefix(maximumBatch))
            state.waiting.removeFirst(batch.count)
            return batch
        }
    }
}
