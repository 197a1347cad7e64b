import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Synchronization
import Testing

/// The cache of development chains: a value being made holds up only the callers of its own key.
@Suite(.offPool) struct MadeOnceTests {
    /// Runs `work` on a thread of its own; `done` is signalled when it returns.
    static func onThread(_ done: DispatchSemaphore, _ work: @escaping @Sendable () -> Void) {
        Thread {
            work()
            done.signal()
        }.start()
    }

    @Test func anotherKeyIsNotHeldUpAndOneKeyIsMadeOnce() throws {
        let cache = MadeOnce<String>()
        let makingSlow = DispatchSemaphore(value: 0)
        let releaseSlow = DispatchSemaphore(value: 0)
        let slowMade = Mutex(0)
        let answers = Mutex<[String]>([])
        let first = DispatchSemaphore(value: 0)
        Self.onThread(first) {
            let value = try? cache.value("slow") {
                slowMade.withLock { $0 += 1 }
                makingSlow.signal()
                releaseSlow.wait()
                return "slow value"
            }
            answers.withLock { $0.append(value ?? "failed") }
        }
        makingSlow.wait()
        // While "slow" is being made: another key is made and answered at once (this thread would hang otherwise).
        #expect(try cache.value("fast") { "fast value" } == "fast value")
        // A second caller of "slow" waits for the first one's value and does not make it again.
        let second = DispatchSemaphore(value: 0)
        Self.onThread(second) {
            let value = try? cache.value("slow") {
                slowMade.withLock { $0 += 1 }
                return "made twice"
            }
            answers.withLock { $0.append(value ?? "failed") }
        }
        releaseSlow.signal()
        first.wait()
        second.wait()
        #expect(answers.withLock { $0 } == ["slow value", "slow value"])
        #expect(slowMade.withLock { $0 } == 1)
        // Made values are kept.
        #expect(try cache.value("slow") { "again" } == "slow value")
    }

    @Test func aFailureIsMadeAgainByTheNextCaller() throws {
        struct Refused: Error {}
        let cache = MadeOnce<Int>()
        #expect(throws: Refused.self) { try cache.value("k") { throw Refused() } }
        #expect(try cache.value("k") { 7 } == 7)
    }
}
