import Foundation
public import PassmintStore
import PostgresNIO

/// The durable outboxes on PostgreSQL (``Outbox``), shared by every service node: a worker looks with a read before
/// it claims; a claim takes due rows with `FOR UPDATE SKIP LOCKED` and leases them, so two nodes never claim the same
/// row, and a node that dies holding a lease loses it when the lease ends; a settlement writes a round in one
/// transaction of a few set-based statements (arrays through `UNNEST`), whatever its size.
extension PostgresPassStore {
    /// Whether `outbox` holds a row due and unclaimed now: the look a worker takes before it claims, with a read (a
    /// write makes this node's cached device answers stale, and an idle worker looks several times a second). It walks
    /// the `due_at` index (the order asks for it): a queue that churns holds many dead rows until it is vacuumed, and a
    /// sequential scan (which the planner picked for the bare `LIMIT 1`) read them all, hundreds of pages a look.
    func hasDue(_ outbox: Outbox) async throws -> Bool {
        try await client.withConnection { connection in
            let now = PassEvent.milliseconds(clock())
            let rows = try await connection.query(
                """
                SELECT 1 FROM \(unescaped: outbox.table) WHERE \(unescaped: outbox.owed) AND due_at <= \(now) AND lease_until <= \(now)
                ORDER BY due_at LIMIT 1
                """, logger: logger)
            for try await _ in rows { return true }
            return false
        }
    }

    /// Runs a claim, one statement committing on its own (no `BEGIN` and `COMMIT` round trips: a statement is atomic
    /// alone), that notifies no other node; `claim` gets the time and the end of a lease taken now, in milliseconds.
    func claiming<T: Sendable>(
        lease: Duration, _ claim: (PostgresConnection, _ now: Int64, _ until: Int64) async throws -> T
    ) async throws -> T {
        defer { changeFeed.noteCommit(passes: false) }
        return try await clients.withConnection { connection in
            let now = PassEvent.milliseconds(clock())
            return try await claim(connection, now, now + lease.milliseconds)
        }
    }

    /// Claims up to `limit` due rows of a coalesced `outbox` for `lease`, the longest due first, each made an item
    /// from its two key columns.
    func claimRows<Item>(
        of outbox: Outbox, limit: Int, lease: Duration, _ item: (String, String) -> Item
    ) async throws -> [Owed<Item>] {
        guard try await hasDue(outbox) else { return [] }
        let (table, key0, key1) = (outbox.table, outbox.keys.0, outbox.keys.1)
        return try await claiming(lease: lease) { connection, now, until in
            // The rows taken are found again by their place (`ctid`, one TID scan), not by a join on the keys: the
            // planner joined by scanning the whole table, which a churning queue fills with dead rows until vacuumed.
            // A row a change rewrote after this statement began is locked but not found again: it stays due.
            let rows = try await connection.query(
                """
                UPDATE \(unescaped: table) o SET lease_until = \(until) WHERE o.ctid = ANY(ARRAY(
                    SELECT ctid FROM \(unescaped: table) WHERE due_at <= \(now) AND lease_until <= \(now)
                    ORDER BY due_at LIMIT \(limit) FOR UPDATE SKIP LOCKED))
                RETURNING o.\(unescaped: key0), o.\(unescaped: key1), o.generation, o.attempts, o.enqueued_at
                """, logger: logger)
            var claimed: [Owed<Item>] = []
            for try await (first, second, generation, attempts, enqueued) in rows.decode((String, String, Int64, Int32, Int64).self) {
                claimed.append(
                    Owed(
                        item(first, second), generation: generation, attempts: Int(attempts),
                        enqueuedAt: PassEvent.date(milliseconds: enqueued)))
            }
            return claimed
        }
    }

    /// Settles the done and retried rows of a coalesced `outbox` in the caller's transaction (given-up ones are the
    /// kind's own): done ones leave it, retried ones are due again at their time with one attempt more, and a row a
    /// newer change owes again (another generation) is freed for the next claim instead. The rows (given-up ones too,
    /// which the caller deletes after) are locked first in key
    /// order (byte order, as Swift sorts the keys), the order in which changes write them: without it the `DELETE …
    /// USING UNNEST` locked them in the join's order, and a group of changes on another node and the settlement waited
    /// for each other until PostgreSQL broke the deadlock by rolling one back (the campaign saw about a hundred groups
    /// of 256 changes rolled back and written again one at a time).
    func settleRows<Item>(
        _ connection: PostgresConnection, of outbox: Outbox, _ settlement: OutboxSettlement<Item>, key: (Item) -> (String, String)
    ) async throws {
        let (table, key0, key1) = (outbox.table, outbox.keys.0, outbox.keys.1)
        let done = settlement.done.map { (key: key($0.item), generation: $0.generation) }
        let retry = settlement.retry.map { (key: key($0.owed.item), generation: $0.owed.generation, at: $0.at) }
        let locking = settlement.rows.map { key($0.owed.item) }
        guard !locking.isEmpty else { return }
        let locked = try await connection.query(
            """
            SELECT 1 FROM \(unescaped: table) o
            JOIN (SELECT DISTINCT a, b FROM UNNEST(\(locking.map(\.0))::text[], \(locking.map(\.1))::text[]) AS k(a, b)) k
                ON o.\(unescaped: key0) = k.a AND o.\(unescaped: key1) = k.b
            ORDER BY o.\(unescaped: key0) COLLATE "C", o.\(unescaped: key1) COLLATE "C" FOR UPDATE OF o
            """, logger: logger)
        for try await _ in locked {}
        var settled: Set<[String]> = []
        if !done.isEmpty {
            let rows = try await connection.query(
                """
                DELETE FROM \(unescaped: table) o USING UNNEST(\(done.map(\.key.0))::text[], \(done.map(\.key.1))::text[],
                    \(done.map(\.generation))::bigint[]) AS d(a, b, g)
                WHERE o.\(unescaped: key0) = d.a AND o.\(unescaped: key1) = d.b AND o.generation = d.g
                RETURNING o.\(unescaped: key0), o.\(unescaped: key1)
                """, logger: logger)
            for try await (first, second) in rows.decode((String, String).self) { settled.insert([first, second]) }
        }
        if !retry.isEmpty {
            let rows = try await connection.query(
                """
                UPDATE \(unescaped: table) o SET due_at = d.due, lease_until = 0, attempts = o.attempts + 1
                FROM UNNEST(\(retry.map(\.key.0))::text[], \(retry.map(\.key.1))::text[], \(retry.map(\.generation))::bigint[],
                    \(retry.map { PassEvent.milliseconds($0.at) })::bigint[]) AS d(a, b, g, due)
                WHERE o.\(unescaped: key0) = d.a AND o.\(unescaped: key1) = d.b AND o.generation = d.g
                RETURNING o.\(unescaped: key0), o.\(unescaped: key1)
                """, logger: logger)
            for try await (first, second) in rows.decode((String, String).self) { settled.insert([first, second]) }
        }
        // Owed again by a newer change while they were out: free them for the next claim.
        let again = (done.map(\.key) + retry.map(\.key)).filter { !settled.contains([$0.0, $0.1]) }
        if !again.isEmpty {
            try await connection.query(
                """
                UPDATE \(unescaped: table) o SET lease_until = 0
                FROM UNNEST(\(again.map(\.0))::text[], \(again.map(\.1))::text[]) AS d(a, b)
                WHERE o.\(unescaped: key0) = d.a AND o.\(unescaped: key1) = d.b
                """, logger: logger)
        }
    }

    /// How many rows `outbox` owes, how many are due now, and since when the oldest is owed.
    public func outboxStatus(_ outbox: Outbox) async throws -> OutboxStatus {
        try await client.withConnection { connection in
            let now = PassEvent.milliseconds(clock())
            let rows = try await connection.query(
                """
                SELECT COUNT(*), MIN(\(unescaped: outbox.since)), COUNT(*) FILTER (WHERE due_at <= \(now))
                FROM \(unescaped: outbox.table) WHERE \(unescaped: outbox.owed)
                """, logger: logger)
            for try await (count, oldest, due) in rows.decode((Int64, Int64?, Int64).self) {
                return OutboxStatus(
                    depth: Int(count), due: Int(due), oldestEnqueuedAt: oldest.map { PassEvent.date(milliseconds: $0) })
            }
            return OutboxStatus(depth: 0, due: 0, oldestEnqueuedAt: nil)
        }
    }
}
