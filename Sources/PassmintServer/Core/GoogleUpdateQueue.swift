package import Foundation
package import Logging
import PassmintGoogle
package import PassmintStore
import ServiceLifecycle
import Synchronization

/// Patches the Google Wallet objects the store owes (``Outbox/googleObject``), in the background, like ``PushQueue``: a
/// change commits the patch it owes in its own transaction and answers at once; this drains the queue. Each round
/// claims a batch (leased, so several nodes share one PostgreSQL queue), reads the batch's passes at once, sends each
/// (``GoogleWalletService/send(_:)``) and settles the batch in one write: done rows leave the queue unless a newer
/// change owes them again, failures come back after a back-off. What a killed process held comes back when its lease
/// ends, so no acknowledged change is left unsent.
package final class GoogleUpdateQueue: Service, Sendable {
    let store: any PassStore
    let google: GoogleWalletService
    let logger: Logger
    let batchSize: Int
    let lease: Duration
    /// The time a failed patch's retry is due from: the wall clock, or a test's (with the store's).
    let clock: @Sendable () -> Date
    private let loop: QueueLoop
    private let counts = Mutex(GoogleUpdateStatistics())

    package init(
        store: any PassStore, google: GoogleWalletService, logger: Logger, batchSize: Int = 100, concurrentRounds: Int = 2,
        lease: Duration = .seconds(60), idlePoll: Duration = .milliseconds(500), ready: StoreReadiness? = nil,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.google = google
        self.logger = logger
        self.batchSize = batchSize
        self.lease = lease
        self.clock = clock
        loop = QueueLoop(
            name: "the Google update queue", logger: logger, idlePoll: idlePoll, ready: ready, store: store,
            concurrentRounds: concurrentRounds)
    }

    /// What became of every update claimed since the service started, counted (`GET /metrics`).
    package var statistics: GoogleUpdateStatistics { counts.withLock { $0 } }

    /// How many patches are owed, and since when.
    package func status() async throws -> OutboxStatus { try await store.outboxStatus(.googleObject) }

    /// A change committed a patch to send: start a round now.
    package func wake() { loop.doorbell.ring() }

    /// Drains until graceful shutdown; what is left stays owed in the store for the next start.
    package func run() async throws {
        await loop.run(lastRound: false) { try await self.round() }
    }

    /// Claims, sends and settles one batch; the number claimed.
    @discardableResult
    package func round() async throws -> Int {
        let claimed = try await store.claimGoogleUpdates(limit: batchSize, lease: lease)
        guard !claimed.isEmpty else { return 0 }
        var settlement = OutboxSettlement<PassKey>()
        let passes = try await store.passes(claimed.map(\.item))  // the round's passes in one read
        await withTaskGroup(of: (Owed<PassKey>, Result<GoogleWalletClient.Outcome, any Error>).self) { group in
            for update in claimed {
                let pass = passes[update.item]
                group.addTask { [google] in
                    do {
                        // A pass that no longer exists has nothing to send.
                        guard let pass else { return (update, .success(.unchanged)) }
                        return (update, .success(try await google.send(pass)))
                    } catch {
                        return (update, .failure(error))
                    }
                }
            }
            let now = clock()
            for await (update, result) in group {
                counts.withLock { $0.count(try? result.get(), attempts: update.attempts) }
                guard case .failure(let failure) = result else {
                    settlement.add(update, .done)
                    continue
                }
                let wait = QueueLoop.backOff(afterAttempts: update.attempts)
                settlement.add(update, .retry(at: now.addingTimeInterval(Double(wait.components.seconds))))
                logger.warning(
                    "a Google Wallet object could not be updated; it stays owed and is tried again",
                    metadata: ["pass": "\(update.passTypeIdentifier)/\(update.serialNumber)", "error": "\(failure)"])
            }
        }
        try await store.settleGoogleUpdates(settlement)
        logger.info("Google update round", metadata: ["claimed": "\(claimed.count)", "done": "\(settlement.done.count)"])
        return claimed.count
    }

    /// Sends until nothing due is left (``QueueLoop/drain(_:due:)``).
    package func drain() async throws {
        try await QueueLoop.drain({ try await round() }, due: { try await store.outboxStatus(.googleObject).due })
    }
}
