import Foundation

/// A thread of its own for the bulk changes (``UpdateJobService``): a job's work (parsing lines, rendering and
/// checking thousands of passes) runs here, with every task it starts, and never on Swift's cooperative pool, which
/// answers devices and `/health` (two threads on a small machine). Started on first use; it ends after a while idle.
final class JobThread: TaskExecutor, @unchecked Sendable {
    // @unchecked: `queue` and `started` are touched only under `condition`.
    private let condition = NSCondition()
    private var queue: [UnownedJob] = []
    private var started = false
    /// The thread's name, for stack dumps.
    let name: String

    init(name: String = "passmint-jobs") { self.name = name }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        queue.append(unowned)
        if !started {
            started = true
            let thread = Thread { [self] in
                // Named from inside, by the kernel's name: on Linux a name given to Foundation's Thread before start
                // is not applied, and the thread would show (in `top -H`, stack dumps) the name of the pool thread
                // that started it.
                // The kernel keeps 15 bytes; Linux only (elsewhere there is no such file and nothing happens).
                try? String(name.prefix(15)).write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
                loop()
            }
            thread.start()
        }
        condition.signal()
        condition.unlock()
    }

    /// Whether the caller runs on this executor's thread.
    var isCurrent: Bool { Thread.current.name == name }

    /// How long the thread waits idle before it ends (the next job starts another): a stopped service leaves no thread
    /// behind (a test process makes hundreds of services; seen: 236 idle job threads, and the suite hung).
    static let idleEnd: TimeInterval = 10

    private func loop() {
        while true {
            condition.lock()
            while queue.isEmpty {
                if !condition.wait(until: Date().addingTimeInterval(Self.idleEnd)) && queue.isEmpty {
                    started = false
                    condition.unlock()
                    return
                }
            }
            let batch = queue
            queue.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}

extension JobThread {
    /// Runs `work`, which blocks (a write, an fsync), on this thread and waits for it without holding a thread of
    /// the caller's pool: a task of its own starts here, whatever the caller's executor.
    func perform<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await Task(executorPreference: self) { try work() }.value
    }
}

extension JobThread {
    /// Runs `work`, which blocks between its awaits (reading a file a block at a time for the database), as a task of
    /// its own on this thread, and waits for it.
    func performAsync<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Task(executorPreference: self) { try await work() }.value
    }
}
