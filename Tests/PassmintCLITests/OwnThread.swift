import Foundation
import PassmintTestSupport
import Testing

/// Runs each test of a suite on threads of its own (a new thread for every piece of work its task runs): these tests
/// wait for processes (`passmint`, openssl, psql, curl) by blocking, which on Swift's cooperative pool would hold one of
/// its two threads here while the service tests running beside them need both.
struct OffPoolTrait: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil, #available(macOS 15, *) else { return try await function() }
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OffPoolTrait {
    /// Runs the suite's tests off the cooperative pool (see ``OffPoolTrait``).
    static var offPool: Self { OffPoolTrait() }
}

/// A task executor that runs every job on a new thread: a job may block as long as it likes without holding a thread
/// anything else waits for.
@available(macOS 15, *)
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}
