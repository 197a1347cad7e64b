package import Foundation
package import Logging
package import PassmintStore
import ServiceLifecycle
import Synchronization

/// Whether the store answers, as the service's answers need to know it: probed every second (a connection of the
/// probe's own and a trivial query), and at once when a request fails with an error the store calls an outage. A
/// probe that fails (refused, dropped, a server shutting down) marks the store out of reach; one that answers marks
/// it back; one that is merely slow (no answer within ``timeout``, as on a loaded machine) changes nothing, so load
/// never turns into 503s. While it is out of reach, requests that need it are answered 503 with `Retry-After` at once
/// instead of waiting for a connection, `/ready` answers 503, and the moment it answers again everything goes on
/// (logged once each way).
package final class StoreReachability: Service, Sendable {
    let store: any PassStore
    let logger: Logger
    let clock: @Sendable () -> Date
    /// How long a probe waits for the store's answer.
    package let timeout: Duration
    private struct State {
        var since: Date?
        /// Probes started, and the latest one whose finding was recorded: a probe that finishes after a later one
        /// (a slow answer from before a cut) is stale and recorded nothing.
        var started: UInt64 = 0
        var recorded: UInt64 = 0
    }
    private let state = Mutex(State())

    package init(
        store: any PassStore, logger: Logger, clock: @escaping @Sendable () -> Date, timeout: Duration = .seconds(3)
    ) {
        self.store = store
        self.logger = logger
        self.clock = clock
        self.timeout = timeout
    }

    /// What the last probe found (the store keeps it: ``PassStore/isReachable``).
    package var isReachable: Bool { store.isReachable }

    /// Asks the store for a trivial answer within ``timeout``; records what it found (and logs a change, the error in
    /// full: the query is `SELECT 1`, nothing of a caller's). True when it answered.
    @discardableResult
    package func probe() async -> Bool {
        let ticket = state.withLock { state -> UInt64 in
            state.started += 1
            return state.started
        }
        let failure = await Self.within(timeout) { [store] in try await store.ping() }
        // Slow is not down: only a refusal (refused, reset, a server shutting down) marks the store out of reach;
        // no answer in time, a connect that timed out, changes nothing (a loaded machine must not turn into 503s).
        if let failure, !refused(failure) { return isReachable }
        let reachable = failure == nil
        // The store records it (failing its calls at once while out, fresh connections when back); once per change,
        // and never a finding older than one recorded (the every-second probe's answer from just before a cut).
        let changed = state.withLock { state -> Bool in
            guard ticket > state.recorded else { return false }
            state.recorded = ticket
            return store.reachabilityChanged(reachable: reachable)
        }
        guard changed else { return reachable }
        let now = clock()
        let lasted = state.withLock { state -> TimeInterval in
            defer { state.since = now }
            return state.since.map { now.timeIntervalSince($0) } ?? 0
        }
        if reachable {
            logger.notice("store reachable again", metadata: ["outageSeconds": "\(Int(lasted.rounded()))"])
        } else {
            logger.error(
                "store out of reach: requests that need it are answered 503 until it answers",
                metadata: ["error": "\(failure.map(LogText.error) ?? "")"])
        }
        return reachable
    }

    /// Whether `error` (from a request) means the store is out of reach: the store calls it an outage. A probe runs
    /// at once then, so later requests are answered 503 without waiting.
    func isOutage(_ error: any Error) async -> Bool {
        guard store.isOutage(error) else { return false }
        await probe()
        return true
    }

    /// A failure that says the store is not there, as opposed to slow.
    private func refused(_ error: any Error) -> Bool {
        guard !(error is StoreTimeout), store.isOutage(error) else { return false }
        return !String(reflecting: error).lowercased().contains("timeout")
    }

    /// Probes every second until the service stops.
    package func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await probe()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(1)) }
        }
    }

    /// Runs `body`, returning the error it threw, or a timeout's when it has not finished within `limit`: the body is
    /// then cancelled and not waited for (a connect that ignores cancellation ends at its own timeout), and the timer
    /// ends when the body does.
    static func within(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Void) async -> (any Error)? {
        let outcome = Mutex<CheckedContinuation<(any Error)?, Never>?>(nil)
        return await withCheckedContinuation { continuation in
            outcome.withLock { $0 = continuation }
            let finish = { @Sendable (error: (any Error)?) in outcome.withLock { $0.take() }?.resume(returning: error) }
            let timer = Task {
                try await Task.sleep(for: limit)
                finish(StoreTimeout(limit: limit))
            }
            let work = Task {
                do {
                    try await body()
                    finish(nil)
                } catch {
                    finish(error)
                }
                timer.cancel()
            }
            Task {
                _ = await timer.result
                work.cancel()
            }
        }
    }
}

/// The store did not answer within the probe's time.
struct StoreTimeout: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "no answer within \(limit.components.seconds) s" }
}
