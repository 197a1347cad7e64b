import PassmintStore
import ServiceLifecycleTestKit
import Synchronization
import Testing

/// A stopping node's wait for background work (``ShutdownWait``): work that never returns nor answers cancellation (a
/// store call a dropped connection holds) is abandoned at once, or `grace` after the shutdown; work that ends in time
/// gives its result.
@Suite struct ShutdownWaitTests {
    /// Work that resumes only when the test lets it (it ignores cancellation, as such a store call does).
    final class Gate: Sendable {
        private let waiting = Mutex<CheckedContinuation<Void, Never>?>(nil)
        func pass() async { await withCheckedContinuation { continuation in waiting.withLock { $0 = continuation } } }
        var isWaiting: Bool { waiting.withLock { $0 != nil } }
        func open() { waiting.withLock { $0.take() }?.resume() }
    }

    @Test func workThatNeverEndsIsAbandonedAfterTheGrace() async throws {
        let gate = Gate()
        try await testGracefulShutdown { trigger in
            let waiting = Task {
                try await ShutdownWait.result(abandoningAtShutdown: { false }, grace: .milliseconds(50)) {
                    await gate.pass()
                    return 1
                }
            }
            trigger.triggerGracefulShutdown()
            let value = try await waiting.value
            #expect(value == nil, "abandoned: the wait ended without the work")
        }
        gate.open()
    }

    @Test func workThatEndsWithinTheGraceGivesItsResult() async throws {
        let gate = Gate()
        try await testGracefulShutdown { trigger in
            let waiting = Task {
                try await ShutdownWait.result(abandoningAtShutdown: { false }, grace: .seconds(600)) {
                    await gate.pass()
                    return 7
                }
            }
            trigger.triggerGracefulShutdown()
            // The work ends after the shutdown, well within its grace: its result is waited for.
            while !gate.isWaiting { await Task.yield() }
            gate.open()
            let value = try await waiting.value
            #expect(value == 7)
        }
    }

    /// A weak reference to a work's result: nil once nothing holds the result.
    final class Left: Sendable {
        final class Token: Sendable {}
        struct Weak { weak var token: Token? }
        let token = Mutex(Weak())
    }

    /// Work that ends within its grace leaves nothing behind once the wait returned: the grace's timer ends with it,
    /// instead of sleeping on for the rest of the grace holding the work's result (without it, the loop below goes on
    /// until the time limit).
    @Test(.timeLimit(.minutes(1))) func theGraceTimerEndsWithTheWork() async throws {
        let left = Left()
        let gate = Gate()
        try await testGracefulShutdown { trigger in
            let waiting = Task {
                let token = try await ShutdownWait.result(abandoningAtShutdown: { false }, grace: .seconds(600)) {
                    await gate.pass()
                    let token = Left.Token()
                    left.token.withLock { $0.token = token }
                    return token
                }
                return token != nil
            }
            trigger.triggerGracefulShutdown()
            while !gate.isWaiting { await Task.yield() }
            gate.open()
            let ended = try await waiting.value
            #expect(ended, "the work's result came")
        }
        while left.token.withLock({ $0.token != nil }) {
            try Task.checkCancellation()  // the time limit came first
            await Task.yield()
        }
    }

    /// The last wait of a stop (its clients closing): at most its limit, even when the caller is cancelled.
    @Test func atMostEndsAtTheLimitForWorkThatNeverEnds() async {
        let gate = Gate()
        let waiting = Task { await ShutdownWait.atMost(.milliseconds(50)) { await gate.pass() } }
        waiting.cancel()
        #expect(await waiting.value == nil, "the limit came first")
        gate.open()
    }

    @Test func atMostGivesWorkThatEndsItsTime() async {
        let gate = Gate()
        let waiting = Task { await ShutdownWait.atMost(.seconds(600)) { await gate.pass() } }
        while !gate.isWaiting { await Task.yield() }
        gate.open()
        #expect(await waiting.value != nil, "the work ended first")
    }
}
