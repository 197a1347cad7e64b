import Foundation
import Logging
import PassmintStore
import ServiceLifecycle
import Synchronization

/// Keeps events for ``ServerConfiguration/eventRetention``: once the store is ready and then every hour, the events
/// of the days before that are added to the store's daily aggregates and deleted (`PassStore.pruneEvents(before:)`),
/// so the statistics still count them, a day at a time. In the same round, per-pass images that no stored pass names
/// any more and that were last stored over an hour before are deleted (`PassStore.pruneImages(storedBefore:)`): an
/// image replaced by a PATCH or a bulk update's line leaves the database within about two hours; and the answers kept
/// for `Idempotency-Key`s over a day old are forgotten (``IdempotencyService/retention``). Several nodes may prune at
/// once: the store lets one at a time.
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
        return events
    }

    package func run() async throws {
        if await cancelWhenGracefulShutdown({ await ready.wait() }) == false { return }
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                guard let deleted = try await unlessShuttingDown({ try await prune() }) else { return }
                if deleted > 0 { logger.info("events pruned into daily aggregates", metadata: ["events": "\(deleted)"]) }
            } catch {
                logger.error("cannot prune events; trying again in an hour", metadata: ["error": "\(LogText.error(error))"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(3600)) }
        }
    }

    /// The round's result; nil when graceful shutdown comes first, and then the round is left to end on its own (its
    /// transaction rolls back, and the next start does it again). A store call that an outage's dropped connection
    /// holds may never return, nor answer cancellation (seen with PostgreSQL: a query sent as its connection dropped
    /// reached no server and was never failed), and a stopping node must not wait for it.
    private func unlessShuttingDown<T: Sendable>(_ round: @escaping @Sendable () async throws -> T) async throws -> T? {
        typealias Waiter = CheckedContinuation<Result<T, any Error>?, Never>
        /// The waiter, until the round or the shutdown resumes it; `ended` once either came (before the waiter too).
        let state = Mutex<(waiter: Waiter?, ended: Result<T, any Error>??)>((nil, nil))
        let finish = { @Sendable (result: Result<T, any Error>?) in
            state.withLock { state -> Waiter? in
                guard state.ended == nil else { return nil }
                state.ended = .some(result)
                return state.waiter.take()
            }?.resume(returning: result)
        }
        Task {
            do { finish(.success(try await round())) } catch { finish(.failure(error)) }
        }
        let result = await withGracefulShutdownHandler {
            await withCheckedContinuation { (waiter: Waiter) in
                let ended = state.withLock { state -> Result<T, any Error>?? in
                    if state.ended == nil { state.waiter = waiter }
                    return state.ended
                }
                if let ended { waiter.resume(returning: ended) }
            }
        } onGracefulShutdown: {
            finish(nil)
        }
        return try result?.get()
    }
}
