import Logging
import PassmintStore
import PassmintTestSupport
import ServiceLifecycleTestKit
import Synchronization
import Testing

@testable import PassmintServer

/// The loop the background queues share: while rounds find work, up to its limit of them run at once, never more; a
/// shutdown does not wait for ever for a round that never ends.
@Suite struct QueueLoopTests {
    @Test func roundsOverlapUpToTheLimitWhileTheyFindWork() async throws {
        try await withStore(.sqlite) { store in
            let loop = QueueLoop(
                name: "the test queue", logger: Logger(label: "test.queue"), idlePoll: .milliseconds(20), ready: nil, store: store,
                concurrentRounds: 3)
            let counts = Mutex((calls: 0, running: 0, most: 0))
            let running = Task {
                await loop.run(lastRound: false) {
                    let call = counts.withLock { counts in
                        counts.calls += 1
                        counts.running += 1
                        counts.most = max(counts.most, counts.running)
                        return counts.calls
                    }
                    TestEvents.ring()
                    // The first round found work: the three after it start at once, and hold until three run at once
                    // (a loop running one at a time never gets there).
                    if (2...4).contains(call) { _ = await eventually { counts.withLock { $0.most } >= 3 } }
                    counts.withLock { $0.running -= 1 }
                    TestEvents.ring()
                    return call <= 9 ? 1 : 0
                }
            }
            #expect(await eventually { counts.withLock { $0.calls } > 10 }, "rounds go on while they find work, then poll")
            running.cancel()
            await running.value
            #expect(counts.withLock { $0.most } == 3, "three rounds at once, never more")
        }
    }

    /// A round held by a store call that is never answered (seen after an outage the node had recovered from): the
    /// shutdown waits for it only its grace, and skips the last round.
    @Test func aShutdownLeavesARoundThatNeverEndsAfterTheGrace() async throws {
        try await withStore(.sqlite) { store in
            var loop = QueueLoop(
                name: "the test queue", logger: Logger(label: "test.queue"), idlePoll: .seconds(600), ready: nil, store: store)
            loop.shutdownGrace = .milliseconds(50)
            let gate = ShutdownWaitTests.Gate()
            let calls = Calls()
            let round: @Sendable () async throws -> Int = {
                calls.count.withLock { $0 += 1 }
                await gate.pass()  // never answers, nor cancellation
                return 1
            }
            await testGracefulShutdown { trigger in
                let running = Task { [loop] in await loop.run(lastRound: true, round) }
                #expect(await eventually { gate.isWaiting }, "the round is under way")
                trigger.triggerGracefulShutdown()
                await running.value
            }
            #expect(calls.count.withLock { $0 } == 1, "no last round after a round that did not end")
            gate.open()
        }
    }

    final class Calls: Sendable {
        let count = Mutex(0)
    }
}
