import Logging
import PassmintStore
import ServiceLifecycle

/// The loop the background queues share (``PushQueue``, ``GoogleUpdateQueue``, ``WebhookDeliverer``): once the store is migrated, one round
/// after another while rounds find work, and between idle rounds a wait until a change of this node's rings the
/// doorbell or `idlePoll` passes (for other nodes' changes). A round that cannot reach the store is logged and tried
/// again a second later.
struct QueueLoop: Sendable {
    /// The queue as the log names it ("the push queue").
    let name: String
    let logger: Logger
    let idlePoll: Duration
    /// Opens when the store is migrated; the loop starts then.
    let ready: StoreReadiness?
    /// The store the rounds work on: whether it answers (``PassStore/isReachable``) decides how a shutdown ends.
    let store: any PassStore
    let doorbell = Doorbell()

    /// Runs `round` until graceful shutdown, and with `lastRound` once more after it. A shutdown while the store is
    /// out of reach cancels the round waiting for it and skips the last one: what is owed stays owed in the store, and
    /// the node stops at once instead of waiting for the database (SIGTERM during an outage).
    func run(lastRound: Bool, _ round: @escaping @Sendable () async throws -> Int) async {
        // Not before the store is migrated; and a service stopped before that never starts.
        if let ready, await cancelWhenGracefulShutdown({ await ready.wait() }) == false { return }
        let reachable: @Sendable () -> Bool = { [store] in store.isReachable }
        // A shutdown while the store is out of reach does not wait for the round (``ShutdownWait``): it may be held by
        // a dropped connection for good.
        let loop: @Sendable () async -> Void = {
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                if await logged(round) == 0 { await doorbell.wait(timeout: idlePoll) }
            }
        }
        let ended: Void? = try? await ShutdownWait.result(abandoningAtShutdown: { !reachable() }, onShutdown: { doorbell.ring() }, loop)
        if ended != nil, lastRound, reachable() { _ = await logged(round) }
    }

    private func logged(_ round: @Sendable () async throws -> Int) async -> Int {
        do {
            return try await round()
        } catch {
            if Task.isCancelled { return 0 }  // stopped during an outage: nothing to report
            logger.error("\(name) cannot reach the store; trying again", metadata: ["error": "\(LogText.error(error))"])
            try? await Task.sleep(for: .seconds(1))
            return 0
        }
    }

    /// Rounds until `due` finds nothing due, waiting for rounds another worker (this node's own, or another node's)
    /// has claimed; rows waiting for a retry after a failure are left owed. For tests and the end of a campaign.
    static func drain(_ round: () async throws -> Int, due: () async throws -> Int) async throws {
        while true {
            if try await round() > 0 { continue }
            if try await due() == 0 { return }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// How long a row waits after its n-th failed round: `first`, twice that, four times … at most `most` (pushes and
    /// Google patches 2 s to 5 minutes, webhook deliveries 10 s to an hour).
    static func backOff(afterAttempts attempts: Int, first: Int = 2, most: Int = 300) -> Duration {
        .seconds(min(most, first << min(attempts, 9)))
    }
}
