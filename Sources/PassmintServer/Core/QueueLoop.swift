import Logging
import PassmintStore
import ServiceLifecycle

/// The loop the background queues share (``PushQueue``, ``GoogleUpdateQueue``, ``WebhookDeliverer``): once the store is
/// migrated, rounds while they find work, up to `concurrentRounds` of them at once (while one round's batch is on the
/// wire the next is claimed: the claim leases its rows, so two rounds never hold the same row, and keeps a pass's
/// order as it does for two nodes); between idle rounds a wait until a change of this node's rings the doorbell or
/// `idlePoll` passes (for other nodes' changes). A round that cannot reach the store is logged and tried again a
/// second later.
struct QueueLoop: Sendable {
    /// The queue as the log names it ("the push queue").
    let name: String
    let logger: Logger
    let idlePoll: Duration
    /// Opens when the store is migrated; the loop starts then.
    let ready: StoreReadiness?
    /// The store the rounds work on: whether it answers (``PassStore/isReachable``) decides how a shutdown ends.
    let store: any PassStore
    /// How many rounds may run at once while rounds find work (one when idle).
    var concurrentRounds = 1
    let doorbell = Doorbell()

    /// How long a shutdown waits for the rounds running at that moment, when the store answers, before it leaves them
    /// (a round held by a store call that an outage's dropped connection never answers must not hold the node: seen in
    /// CI after an outage the node had recovered from). Rows such a round claimed stay owed and leased; another round
    /// (this node's next start, or another node) takes them once their lease ends.
    var shutdownGrace: Duration = .seconds(15)

    /// Runs `round` until graceful shutdown, and with `lastRound` once more after it. A shutdown while the store is
    /// out of reach cancels the round waiting for it and skips the last one: what is owed stays owed in the store, and
    /// the node stops at once instead of waiting for the database (SIGTERM during an outage). Otherwise it waits for
    /// the running rounds at most ``shutdownGrace``, and skips the last round when they did not end by then.
    func run(lastRound: Bool, _ round: @escaping @Sendable () async throws -> Int) async {
        // Not before the store is migrated; and a service stopped before that never starts.
        if let ready, await cancelWhenGracefulShutdown({ await ready.wait() }) == false { return }
        let reachable: @Sendable () -> Bool = { [store] in store.isReachable }
        // A shutdown does not wait for a round for ever (``ShutdownWait``): it may be held by a dropped connection for
        // good; while the store is out of reach, it does not wait at all.
        let loop: @Sendable () async -> Void = { await rounds(round) }
        let ended: Void? = try? await ShutdownWait.result(
            abandoningAtShutdown: { !reachable() }, grace: shutdownGrace, onShutdown: { doorbell.ring() }, loop)
        if ended == nil, reachable(), !Task.isCancelled {
            logger.warning(
                "\(name) stopped without waiting longer for its rounds: one did not end within \(shutdownGrace) of the shutdown; what it claimed stays owed in the store"
            )
        }
        if ended != nil, lastRound, reachable() { _ = await logged(round) }
    }

    /// Rounds until graceful shutdown: one, then while rounds find work up to ``concurrentRounds`` at once (each that
    /// found work is followed by as many as fit); when the last running round finds none, a wait for the doorbell.
    /// Returns once the rounds running at shutdown have ended.
    private func rounds(_ round: @escaping @Sendable () async throws -> Int) async {
        func stopping() -> Bool { Task.isShuttingDownGracefully || Task.isCancelled }
        await withTaskGroup(of: Int.self) { group in
            var running = 0
            while !stopping() {
                if running == 0 {
                    group.addTask { await logged(round) }
                    running += 1
                }
                guard let found = await group.next() else { return }
                running -= 1
                if found > 0 {
                    while running < concurrentRounds && !stopping() {
                        group.addTask { await logged(round) }
                        running += 1
                    }
                } else if running == 0 {
                    await doorbell.wait(timeout: idlePoll)
                }
            }
        }
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
