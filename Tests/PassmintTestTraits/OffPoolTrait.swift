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

    /// Whether the calling thread is one of the traits' (a test can tell it is off the pool).
    public static var isCurrentThreadOffPool: Bool { pthread_getspecific(offPoolKey) != nil }

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

/// Marks the traits' threads: a key of the thread itself (Foundation's `Thread.current.name` is not always the kernel's
/// name, and a thread starts with its creator's).
private let offPoolKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

/// Marks the calling thread as one of the traits' (and names it so in stack dumps).
private func markThread() {
    pthread_setspecific(offPoolKey, UnsafeRawPointer(bitPattern: 1))
    Thread.current.name = "off-pool"
}

/// A task executor that runs every job on a new thread: a job may block as long as it likes without holding a thread
/// anything else waits for.
@available(macOS 15, *)
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread {
            markThread()
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
                markThread()
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
