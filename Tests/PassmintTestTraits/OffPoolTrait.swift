import Foundation
public import Testing

/// Runs each test of a suite off Swift's cooperative pool, which has one thread a core (two here), so that a test that
/// holds its thread for long does not hold up the service tests running beside it, which need both.
/// - ``Trait/offPool``: a new thread for every piece of work a test's task runs, for tests that block (waiting for
///   processes: `passmint`, openssl, psql, curl).
/// - ``Trait/computeThreads``: threads of their own, one a core, shared by every suite with the trait, for tests that
///   compute for long without a suspension point (a batch of thousands of rows, an archive of 65,536 entries in a
///   debug build). Two such tests once held both pool threads and stalled every service test of a whole-suite run for
///   over a minute, past their HTTP clients' timeouts; given a thread each, all of them at once would leave the pool a
///   small share of the cores instead.
public struct OffPoolTrait: SuiteTrait, TestTrait, TestScoping {
    /// Where the tests run.
    enum Threads {
        case perJob
        case compute
    }

    let threads: Threads

    public var isRecursive: Bool { true }

    /// The name of the threads its tests run on (a test can tell it is off the pool; at most 15 bytes on Linux).
    public static let threadName = "off-pool"

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil, #available(macOS 15, *) else { return try await function() }
        let executor: any TaskExecutor = threads == .perJob ? ThreadPerJobExecutor.shared : ComputeExecutor.shared
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OffPoolTrait {
    /// Runs the suite's tests on a new thread for every piece of work (see ``OffPoolTrait``): for tests that block.
    public static var offPool: Self { OffPoolTrait(threads: .perJob) }

    /// Runs the suite's tests on threads of their own, one a core (see ``OffPoolTrait``): for tests that compute.
    public static var computeThreads: Self { OffPoolTrait(threads: .compute) }
}

/// Names the calling thread as the trait's (a thread starts with its creator's name, a pool thread's, whatever is set
/// before it starts).
private func nameThread() { Thread.current.name = OffPoolTrait.threadName }

/// A task executor that runs every job on a new thread: a job may block as long as it likes without holding a thread
/// anything else waits for.
@available(macOS 15, *)
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread {
            nameThread()
            job.runSynchronously(on: executor)
        }.start()
    }
}

/// A task executor of a fixed set of threads, one a core, taking jobs in order: tests that compute share the cores
/// with the cooperative pool instead of crowding it out.
@available(macOS 15, *)
final class ComputeExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` only under `condition`.
    static let shared = ComputeExecutor(threads: ProcessInfo.processInfo.activeProcessorCount)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    init(threads: Int) {
        for _ in 0..<max(1, threads) {
            Thread { [self] in
                nameThread()
                let executor = asUnownedTaskExecutor()
                while true { next().runSynchronously(on: executor) }
            }.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// The oldest job, once there is one.
    private func next() -> UnownedJob {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty { condition.wait() }
        return jobs.removeFirst()
    }
}
