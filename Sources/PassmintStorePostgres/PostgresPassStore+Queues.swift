import Foundation
public import PassmintStore
import PostgresNIO

/// What the durable queues on PostgreSQL share (`push_outbox`, `google_outbox`, `webhook_deliveries`): a worker
/// looks with a read before it claims, claims with a lease in a write, and reads the queue's status. Table names are
/// the store's own constants.
extension PostgresPassStore {
    /// Whether `query`, given the time in milliseconds, finds a row: the look a worker takes before it claims, with a
    /// read (a write makes this node's cached device answers stale, and an idle worker looks several times a second).
    func finds(_ query: (Int64) -> PostgresQuery) async throws -> Bool {
        try await client.withConnection { connection in
            let rows = try await connection.query(query(Self.milliseconds(clock())), logger: logger)
            for try await _ in rows { return true }
            return false
        }
    }

    /// Runs a claim in a write that notifies no other node; `claim` gets the time and the end of a lease taken now,
    /// in milliseconds.
    func claiming<T: Sendable>(
        lease: Duration, _ claim: (PostgresConnection, _ now: Int64, _ until: Int64) async throws -> T
    ) async throws -> T {
        try await write(notify: false) { connection in
            let now = Self.milliseconds(clock())
            let until = now + lease.components.seconds * 1000 + lease.components.attoseconds / 1_000_000_000_000_000
            return try await claim(connection, now, until)
        }
    }

    /// How many rows the queue `table` holds, how many are due, and since when the oldest is owed.
    public func webhookQueueStatus() async throws -> PushQueueStatus {
        try await queueStatus(of: "webhook_deliveries", since: "at", owed: "delivered_at IS NULL AND failed_at IS NULL")
    }

    /// How many rows of `table` are owed (`owed`), how many are due now, and the oldest's `since`.
    func queueStatus(of table: String, since: String = "enqueued_at", owed: String = "TRUE") async throws -> PushQueueStatus {
        try await client.withConnection { connection in
            let now = Self.milliseconds(clock())
            let rows = try await connection.query(
                """
                SELECT COUNT(*), MIN(\(unescaped: since)), COUNT(*) FILTER (WHERE due_at <= \(now))
                FROM \(unescaped: table) WHERE \(unescaped: owed)
                """, logger: logger)
            for try await (count, oldest, due) in rows.decode((Int64, Int64?, Int64).self) {
                return PushQueueStatus(
                    depth: Int(count), due: Int(due), oldestEnqueuedAt: oldest.map { Date(timeIntervalSince1970: Double($0) / 1000) })
            }
            return PushQueueStatus(depth: 0, due: 0, oldestEnqueuedAt: nil)
        }
    }
}
