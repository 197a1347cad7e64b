import Foundation
import Logging
import PassmintStore
import ServiceLifecycle

/// Keeps events for ``ServerConfiguration/eventRetention``: once the store is ready and then every hour, the events
/// of the days before that are added to the store's daily aggregates and deleted (`PassStore.pruneEvents(before:)`),
/// so the statistics still count them, a day at a time. In the same round, per-pass images that no stored pass names
/// any more and that were last stored over an hour before are deleted (`PassStore.pruneImages(storedBefore:)`): an
/// image replaced by a PATCH or a bulk update's line leaves the database within about two hours; and the answers kept
/// for `Idempotency-Key`s over a day old are forgotten (``IdempotencyService/retention``), and the payments declined or
/// issued before the events' retention (a replay of their tokens is refused as an old token). Several nodes may prune
/// at once: the store lets one at a time.
package struct EventPruner: Service {
    let store: any PassStore
    let retention: Duration
    let ready: StoreReadiness
    let logger: Logger
    let clock: @Sendable () -> Date

    /// Prunes once, now: the number of events deleted.
    @discardableResult
    package func prune() async throws -> Int {
        let seconds = Double(retention.components.seconds)
        let now = clock()
        let events = try await store.pruneEvents(before: now.addingTimeInterval(-seconds))
        let images = try await store.pruneImages(storedBefore: now.addingTimeInterval(-3600))
        if images > 0 { logger.info("images no pass names any more deleted", metadata: ["images": "\(images)"]) }
        _ = try await store.pruneIdempotencyKeys(claimedBefore: now.addingTimeInterval(-IdempotencyService.retention))
        _ = try await store.prunePayments(finishedBefore: now.addingTimeInterval(-seconds))
        return events
    }

    package func run() async throws {
        if await cancelWhenGracefulShutdown({ await ready.wait() }) == false { return }
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                // A stop does not wait for a round the store holds (``ShutdownWait``): the next start prunes again.
                guard let deleted = try await ShutdownWait.result({ try await prune() }) else { return }
                if deleted > 0 { logger.info("events pruned into daily aggregates", metadata: ["events": "\(deleted)"]) }
            } catch {
                logger.error("cannot prune events; trying again in an hour", metadata: ["error": "\(LogText.error(error))"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(3600)) }
        }
    }
}
