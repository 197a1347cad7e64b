import Foundation

/// The durable outboxes on SQLite (``Outbox``): a row is owed with a due time, claimed with a lease, settled by its
/// generation (a row a newer change owes again stays owed), and counted for the outbox's status.
extension SQLitePassStore {
    /// Whether `outbox` holds a row due and unclaimed now: the look a worker takes before it claims, with a read (a
    /// write, even one that changes nothing, makes the service's cached device answers stale, and an idle worker looks
    /// several times a second).
    func hasDue(_ outbox: Outbox) throws -> Bool {
        try read { db in
            var found = false
            let now = PassEvent.milliseconds(self.clock())
            let query = "SELECT 1 FROM \(outbox.table) WHERE \(outbox.owed) AND due_at <= ? AND lease_until <= ? LIMIT 1"
            try db.query(query, [.integer(now), .integer(now)]) { _ in found = true }
            return found
        }
    }

    /// Claims up to `limit` due rows of a coalesced `outbox` for `lease`, the longest due first, each made an item
    /// from its two key columns.
    func claimRows<Item>(
        of outbox: Outbox, limit: Int, lease: Duration, _ item: @escaping @Sendable (String, String) -> Item
    ) async throws -> [Owed<Item>] {
        guard try hasDue(outbox) else { return [] }
        let table = outbox.table
        return try await writer.write { db in
            let now = PassEvent.milliseconds(self.clock())
            var claimed: [Owed<Item>] = []
            try db.query(
                """
                UPDATE \(table) SET lease_until = ? WHERE rowid IN (
                    SELECT rowid FROM \(table) WHERE due_at <= ? AND lease_until <= ? ORDER BY due_at LIMIT ?)
                RETURNING \(outbox.keys.0), \(outbox.keys.1), generation, attempts, enqueued_at
                """, [.integer(now + lease.milliseconds), .integer(now), .integer(now), .integer(Int64(limit))]
            ) { row in
                claimed.append(
                    Owed(
                        item(row.text(0) ?? "", row.text(1) ?? ""), generation: row.integer(2), attempts: Int(row.integer(3)),
                        enqueuedAt: PassEvent.date(milliseconds: row.integer(4))))
            }
            return claimed
        }
    }

    /// Settles the done and retried rows of a coalesced `outbox` in the caller's transaction (given-up ones are the
    /// kind's own): done, a row leaves the outbox; retried, it is due again then, one attempt more. A row a newer
    /// change owes again (another generation) is freed for the next claim.
    static func settleRows<Item>(
        _ db: SQLiteConnection, of outbox: Outbox, _ settlement: OutboxSettlement<Item>, key: (Item) -> (String, String)
    ) throws {
        for row in settlement.rows {
            switch row.outcome {
            case .done: try settleRow(db, of: outbox, key: key(row.owed.item), generation: row.owed.generation)
            case .retry(let at): try settleRow(db, of: outbox, key: key(row.owed.item), generation: row.owed.generation, retryAt: at)
            case .givenUp: break
            }
        }
    }

    private static func settleRow(
        _ db: SQLiteConnection, of outbox: Outbox, key: (String, String), generation: Int64, retryAt: Date? = nil
    ) throws {
        let (table, keys) = (outbox.table, outbox.keys)
        let values: [SQLiteConnection.Value] = [.text(key.0), .text(key.1)]
        if let retryAt {
            try db.query(
                """
                UPDATE \(table) SET due_at = ?, lease_until = 0, attempts = attempts + 1
                WHERE \(keys.0) = ? AND \(keys.1) = ? AND generation = ?
                """, [.integer(PassEvent.milliseconds(retryAt))] + values + [.integer(generation)])
        } else {
            try db.query("DELETE FROM \(table) WHERE \(keys.0) = ? AND \(keys.1) = ? AND generation = ?", values + [.integer(generation)])
        }
        if db.changes == 0 {
            try db.query("UPDATE \(table) SET lease_until = 0 WHERE \(keys.0) = ? AND \(keys.1) = ?", values)
        }
    }

    /// How many rows `outbox` owes, how many are due now, and since when the oldest is owed.
    private func queueStatus(of outbox: Outbox) throws -> OutboxStatus {
        try read { db in
            var status = OutboxStatus(depth: 0, due: 0, oldestEnqueuedAt: nil)
            try db.query(
                "SELECT COUNT(*), MIN(\(outbox.since)), COUNT(*) FILTER (WHERE due_at <= ?) FROM \(outbox.table) WHERE \(outbox.owed)",
                [.integer(PassEvent.milliseconds(self.clock()))]
            ) { row in
                status.depth = Int(row.integer(0))
                status.due = Int(row.integer(2))
                if status.depth > 0 { status.oldestEnqueuedAt = PassEvent.date(milliseconds: row.integer(1)) }
            }
            return status
        }
    }

    public func outboxStatus(_ outbox: Outbox) async throws -> OutboxStatus { try queueStatus(of: outbox) }
}
