import Synchronization

/// Work started for a request that does not wait for it (the push after a sign-up), kept until it ends so that
/// shutdown can wait for it.
public final class BackgroundWork: Sendable {
    private let state = Mutex<(next: Int, tasks: [Int: Task<Void, Never>])>((0, [:]))

    public init() {}

    /// Runs `work` without making the caller wait.
    func run(_ work: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            let id = state.next
            state.next += 1
            state.tasks[id] = Task {
                await work()
                _ = self.state.withLock { $0.tasks.removeValue(forKey: id) }
            }
        }
    }

    /// Waits for the work started so far, and for the work it starts; call it after the server stopped taking
    /// requests, before closing the push client.
    public func finish() async {
        // Each task removes itself before it ends; work may start more work, hence the loop.
        while case let tasks = state.withLock({ Array($0.tasks.values) }), !tasks.isEmpty {
            for task in tasks { await task.value }
        }
    }
}
