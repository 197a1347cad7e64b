import Foundation
import PassmintStore
import Testing

@testable import PassmintPush
@testable import PassmintServer

/// When a failed push is tried again: APNs's `Retry-After`, and the queue's back-off.
@Suite struct PushRetryTests {
    @Test func retryAfterIsReadInSecondsAndAsAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        #expect(APNsPushSender.retryAfter("120", now: now) == .seconds(120))
        #expect(APNsPushSender.retryAfter(" 0 ", now: now) == .zero)
        #expect(APNsPushSender.retryAfter("Tue, 14 Nov 2023 22:14:20 GMT", now: now) == .seconds(60))
        #expect(APNsPushSender.retryAfter("Tue, 14 Nov 2023 22:00:00 GMT", now: now) == .zero, "a date passed: now")
        #expect(APNsPushSender.retryAfter("soon", now: now) == nil)
        #expect(APNsPushSender.retryAfter("-5", now: now) == nil)
        #expect(APNsPushSender.retryAfter(nil, now: now) == nil)
    }

    @Test func aFailedPushComesBackAfterItsBackOffOrWhenAPNsAsked() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let push = Owed(PushTarget(pushToken: "ab", passTypeIdentifier: "pass.x"), generation: 1, attempts: 2, enqueuedAt: now)
        func due(_ outcome: PushOutcome) -> TimeInterval? {
            PushQueue.settlement([(push, outcome)], now: now).retry.first.map { $0.at.timeIntervalSince(now) }
        }
        #expect(due(PushOutcome(pushToken: "ab", result: .failed, status: 500, reason: nil, attempts: 4)) == 8, "2^(attempts+1) s")
        #expect(due(PushOutcome(pushToken: "ab", result: .failed, status: 429, reason: nil, attempts: 1, retryAfter: .seconds(90))) == 90)
        #expect(QueueLoop.backOff(afterAttempts: 40) == .seconds(300), "at most five minutes")
        let delivered = PushQueue.settlement([
            (push, PushOutcome(pushToken: "ab", result: .delivered, status: 200, reason: nil, attempts: 1))
        ])
        #expect(delivered.done == [push] && delivered.retry.isEmpty && delivered.rows.compactMap(\.note).count == 1)
    }
}
