import Logging
import PassmintStore
import PostgresNIO
public import ServiceLifecycle
import Synchronization

/// Follows the changes every node of a fleet makes to the PostgreSQL database, so that each node can cache the
/// device endpoints' reads between changes.
///
/// It `LISTEN`s on `channel` (`passmint_changes`) (every change to a pass `NOTIFY`s on commit, and shows here as soon as the
/// notification arrives, normally well under a millisecond on a LAN), and reads the server's WAL insert position every
/// ``walPollInterval`` (it moves with every commit, registrations included, which do not notify: they show here within
/// two intervals). While it is not following (starting, or reconnecting after a lost connection) both generations are
/// nil and nothing is cached. Run it as a service beside the client.
///
/// Two generations: `generation` moves with every commit anyone makes; `passGeneration` only with the commits that
/// write the `passes` table (each notifies, through the store's writes and a statement trigger on the table), so
/// the pass rows devices fetch stay cached while devices register, pushes settle and events are recorded.
///
/// A template version published on any node notifies the same channel with the payload `template`: the feed calls the
/// handler given to ``onTemplatePublished(_:)`` then, and each time it starts listening (what was announced while it
/// did not listen was missed).
public final class PostgresChangeFeed: Service {
    private let clients: PostgresClientSlot
    private var client: PostgresClient { clients.current }
    private let logger: Logger
    private let counter = Atomic<UInt64>(0)
    private let passCounter = Atomic<UInt64>(0)
    private let listening = Atomic<Bool>(false)
    private let templateHandlers = Mutex<[@Sendable () -> Void]>([])

    /// The payload of a template version published.
    static let templatePayload = "template"
    /// Rung after each move of ``generation``.
    private let changes = ChangeSignal()

    /// The channel every change to a pass notifies on commit.
    static let channel = "passmint_changes"

    /// How often the feed reads the server's WAL position, which moves with every commit of any node.
    public static let walPollInterval = Duration.milliseconds(20)

    init(clients: PostgresClientSlot, logger: Logger) {
        self.clients = clients
        self.logger = logger
    }

    /// Moves after every commit of this node (before the write returns) and on every change the feed sees; nil while
    /// the feed is not following.
    var generation: UInt64? {
        listening.load(ordering: .acquiring) ? counter.load(ordering: .acquiring) : nil
    }

    /// Calls `handler` when a node published a template version, and each time the feed starts listening.
    func onTemplatePublished(_ handler: @escaping @Sendable () -> Void) {
        templateHandlers.withLock { $0.append(handler) }
    }

    private func templatePublished() {
        for handler in templateHandlers.withLock({ $0 }) { handler() }
    }

    /// Moves after every commit to `passes` of this node (before the write returns) and on every notification; nil
    /// while the feed is not following. It never moves without ``generation`` moving too.
    var passGeneration: UInt64? {
        listening.load(ordering: .acquiring) ? passCounter.load(ordering: .acquiring) : nil
    }

    /// Marks cached reads stale: this node committed (`passes`: a commit that wrote the `passes` table, or one that
    /// may have: a notification, the feed starting or stopping).
    func noteCommit(passes: Bool = true) {
        if passes { passCounter.add(1, ordering: .releasing) }
        counter.add(1, ordering: .releasing)
        changes.ring()
    }

    /// Returns once ``generation`` differs from `previous` (a commit seen, or the feed started or stopped following),
    /// or the task is cancelled.
    func changed(since previous: UInt64?) async {
        await changes.wait { generation != previous }
    }

    /// Follows until graceful shutdown or cancellation. A stop does not wait for the feed (``ShutdownWait``): during an
    /// outage its WAL query may be held by a dropped connection for good (seen: a node told to stop while the database
    /// was down waited for it a whole minute).
    public func run() async throws {
        _ = try await ShutdownWait.result { await self.follow() }
    }

    /// Follows until cancelled, reconnecting after a lost connection.
    public func follow() async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask { try await self.followWALPosition() }
                            noteCommit()  // whatever was cached before listening is stale
                            listening.store(true, ordering: .releasing)
                            templatePublished()
                            changes.ring()
                            for try await notification in notifications {
                                noteCommit()
                                if notification.payload == Self.templatePayload { templatePublished() }
                            }
                            group.cancelAll()
                        }
                    }
                }
            } catch {
                if !Task.isCancelled {
                    logger.warning(
                        "change feed lost; reads are not cached until it is back",
                        metadata: ["error": "\(PostgresPassStore.describe(error) ?? "\(error)")"])
                }
            }
            listening.store(false, ordering: .releasing)
            noteCommit()
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Moves the generation whenever the server's WAL insert position moved since the last look, and once more on the
    /// look after (a commit's WAL record is written a moment before the commit becomes visible: a read between the two
    /// could cache the state before it).
    private func followWALPosition() async throws {
        var last = ""
        var recheck = false
        while !Task.isCancelled {
            var position = ""
            let rows = try await clients.query("SELECT pg_current_wal_insert_lsn()::text", logger: logger)
            for try await text in rows.decode(String.self) { position = text }
            if position != last || recheck {
                noteCommit(passes: false)  // a write to `passes` notifies: it moves the pass generation when it arrives
                recheck = position != last
                last = position
            }
            try await Task.sleep(for: Self.walPollInterval)
        }
    }
}
