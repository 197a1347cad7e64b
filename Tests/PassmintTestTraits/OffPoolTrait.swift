import Foundation
public import Testing

/// Runs each test of a suite on threads of its own (a new thread for every piece of work its task runs). For tests that
/// block (waiting for processes: `passmint`, openssl, psql, curl) or compute for long without a suspension point (a
/// batch of thousands of rows, an archive of 65,536 entries in a debug build): on Swift's cooperative pool either holds
/// one of its two threads here while the service tests running beside them need both. Two batch tests holding both
/// once stalled every service test of a whole-suite run for over a minute, past their HTTP clients' timeouts.
public struct OffPoolTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// The name of the threads its tests run on (a test can tell it is off the pool; at most 15 bytes on Linux).
    public static let threadName = "off-pool"

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil, #available(macOS 15, *) else { return try await function() }
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OffPoolTrait {
    /// Runs the suite's tests off the cooperative pool (see ``OffPoolTrait``).
    public static var offPool: Self { OffPoolTrait() }
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
            // Named here: a thread starts with its creator's name (a pool thread's), whatever is set before start.
            Thread.current.name = OffPoolTrait.threadName
            job.runSynchronously(on: executor)
        }.start()
    }
}
