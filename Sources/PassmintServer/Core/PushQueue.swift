package import Foundation
package import Logging
import Passmint
package import PassmintPush
package import PassmintStore
import ServiceLifecycle
import Synchronization

/// Delivers the pushes the store owes (``Outbox/applePush``), in the background: a change commits what it owes in its own
/// transaction and answers at once; this drains the queue. Each round claims a batch (leased, so several service
/// nodes share one PostgreSQL queue without sending a push twice), pushes each pass type's tokens concurrently over
/// the sender's HTTP/2 connections, and settles the batch in one write: delivered pushes leave the queue, gone tokens
/// lose their registrations, failures come back after a back-off. What a killed process held comes back when its
/// lease ends, so nothing owed is lost.
package final class PushQueue: Service, Sendable {
    let store: any PassStore
    let sender: any PushSender
    let logger: Logger
    /// Pushes claimed per round.
    let batchSize: Int
    /// How long a claim holds: a pusher that dies holding pushes loses them after this.
    let lease: Duration
    /// The time a failed push's retry is due from: the wall clock, or a test's (with the store's).
    let clock: @Sendable () -> Date
    private let loop: QueueLoop
    private let counts = Mutex(PushStatistics())

    package init(
        store: any PassStore, sender: any PushSender, logger: Logger, batchSize: Int = 500, concurrentRounds: Int = 1,
        lease: Duration = .seconds(60), idlePoll: Duration = .milliseconds(250), ready: StoreReadiness? = nil,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.clock = clock
        self.store = store
        self.sender = sender
        self.logger = logger
        self.batchSize = batchSize
        self.lease = lease
        loop = QueueLoop(
            name: "the push queue", logger: logger, idlePoll: idlePoll, ready: ready, store: store, concurrentRounds: concurrentRounds)
    }

    /// Every push outcome since the service started, counted (`GET /api/v1/stats`).
    package var statistics: PushStatistics { counts.withLock { $0 } }

    /// How many pushes are owed, and since when.
    package func status() async throws -> OutboxStatus { try await store.outboxStatus(.applePush) }

    /// A change committed pushes to send: start a round now.
    package func wake() { loop.doorbell.ring() }

    /// Drains until graceful shutdown; then one last round for what is due, and what is left stays owed in the store
    /// for the next start.
    package func run() async throws {
        await loop.run(lastRound: true) { try await self.round() }
    }

    /// Claims, pushes and settles one batch; the number claimed.
    @discardableResult
    package func round() async throws -> Int {
        let watch = ContinuousClock()
        let started = watch.now
        let claimed = try await store.claimPushes(limit: batchSize, lease: lease)
        guard !claimed.isEmpty else { return 0 }
        let sending = watch.now
        let byTopic = Dictionary(grouping: claimed, by: \.passTypeIdentifier)
        let outcomes = await withTaskGroup(of: [(Owed<PushTarget>, PushOutcome)].self) { group in
            for (topic, pushes) in byTopic {
                group.addTask { [sender] in
                    let byToken = Dictionary(uniqueKeysWithValues: pushes.map { ($0.pushToken, $0) })
                    let results = await sender.push(topic: topic, pushTokens: pushes.map(\.pushToken))
                    return results.compactMap { outcome in byToken[outcome.pushToken].map { ($0, outcome) } }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        counts.withLock { $0.count(outcomes.map(\.1)) }  // sent, whatever the settlement's fate
        let settling = watch.now
        try await store.settlePushes(Self.settlement(outcomes, now: clock()))
        let delivered = outcomes.filter { $0.1.result == .delivered }.count
        func ms(_ duration: Duration) -> String { "\(duration.milliseconds)" }
        logger.info(
            "push round",
            metadata: [
                "claimed": "\(claimed.count)", "delivered": "\(delivered)", "topics": "\(byTopic.count)",
                "claimMs": "\(ms(sending - started))", "sendMs": "\(ms(settling - sending))", "settleMs": "\(ms(watch.now - settling))",
            ])
        let failed = outcomes.filter { $0.1.result == .failed }
        if !failed.isEmpty {
            logger.warning(
                "pushes failed; they stay owed and are tried again",
                metadata: ["failed": "\(failed.count)", "reason": "\(failed[0].1.reason ?? "status \(failed[0].1.status)")"])
        }
        return claimed.count
    }

    /// Pushes until nothing due is left (``QueueLoop/drain(_:due:)``).
    package func drain() async throws {
        try await QueueLoop.drain({ try await round() }, due: { try await store.outboxStatus(.applePush).due })
    }

    static func settlement(_ outcomes: [(Owed<PushTarget>, PushOutcome)], now: Date = Date()) -> OutboxSettlement<PushTarget> {
        var settlement = OutboxSettlement<PushTarget>()
        let stamp = now.formatted(.iso8601)  // not a formatter made per round: it showed in the push rounds' profile
        for (push, outcome) in outcomes {
            let result: JSONValue = [
                "at": .string(stamp), "result": .string(outcome.result.rawValue), "status": .number(JSONNumber(outcome.status)),
                "reason": outcome.reason.map(JSONValue.string) ?? .null, "attempts": .number(JSONNumber(outcome.attempts)),
            ]
            let wait = max(QueueLoop.backOff(afterAttempts: push.attempts), outcome.retryAfter ?? .zero)
            let settled: OutboxSettlement<PushTarget>.Outcome =
                switch outcome.result {
                case .delivered: .done
                case .unregistered: .givenUp
                case .failed: .retry(at: now.addingTimeInterval(Double(wait.components.seconds)))
                }
            settlement.add(push, settled, note: JSONWriter.string(result, style: .compact))
        }
        return settlement
    }
}
