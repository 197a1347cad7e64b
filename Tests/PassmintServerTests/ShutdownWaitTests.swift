import PassmintStore
import PassmintTestSupport
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

    /// The grace's sleep, injected as a clock is: it holds until it is cancelled (no time passes), and says when it was.
    final class Sleeper: Sendable {
        private let state = Mutex<(cancelled: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))
        var wasCancelled: Bool { state.withLock { $0.cancelled } }

        func holdUntilCancelled(_ grace: Duration) async throws {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let resume = state.withLock { state -> Bool in
                        if state.cancelled { return true }
                        state.continuation = continuation
                        return false
                    }
                    if resume { continuation.resume() }
                }
            } onCancel: {
                state.withLock { state in
                    state.cancelled = true
                    return state.continuation.take()
                }?.resume()
                TestEvents.ring()
            }
            throw CancellationError()
        }
    }

    /// Work that ends within its grace leaves no timer behind: the grace's sleep is cancelled once the wait returned,
    /// instead of sleeping on for the rest of the grace (holding the work's task and result).
    @Test func theGraceTimerEndsWithTheWork() async throws {
        let gate = Gate()
        let sleeper = Sleeper()
        try await testGracefulShutdown { trigger in
            let waiting = Task {
                try await ShutdownWait.result(abandoningAtShutdown: { false }, grace: .seconds(600), sleep: sleeper.holdUntilCancelled) {
                    await gate.pass()
                    return 3
                }
            }
            trigger.triggerGracefulShutdown()
            while !gate.isWaiting { await Task.yield() }
            gate.open()
            let value = try await waiting.value
            #expect(value == 3, "the work's result came")
        }
        #expect(await TestEvents.wait { sleeper.wasCancelled }, "the grace's timer was cancelled when the work ended")
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
