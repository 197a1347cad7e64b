import Foundation

/// What the durable queues on SQLite share (`push_outbox`, `google_outbox`): a row is owed with a due time, claimed
/// with a lease, settled by its generation (a row a newer change owes again stays owed), and counted for the queue's
/// status. Table and column names are the store's own constants.
extension SQLitePassStore {
    /// A queue table and the two columns of its key.
    struct Queue {
        var table: String
        var keys: (String, String)
    }

    /// One row a claim took: its key, generation, failed attempts and when it was first owed.
    struct ClaimedRow: Sendable {
        var key: (String, String)
        var generation: Int64
        var attempts: Int
        var enqueuedAt: Date
    }

    /// Claims up to `limit` due rows of `queue` for `lease`. Looked at first with a read: a write, even one that
    /// changes nothing, makes the service's cached device answers stale, and an idle worker looks several times a
    /// second.
    func claimRows(of queue: Queue, limit: Int, lease: Duration) async throws -> [ClaimedRow] {
        let table = queue.table
        let due = try read { db in
            var found = false
            let now = Self.milliseconds(self.clock())
            try db.query("SELECT 1 FROM \(table) WHERE due_at <= ? AND lease_until <= ? LIMIT 1", [.integer(now), .integer(now)]) { _ in
                found = true
            }
            return found
        }
        guard due else { return [] }
        let columns = "\(queue.keys.0), \(queue.keys.1)"
        return try await writer.write { db in
            let now = Self.milliseconds(self.clock())
            let until = now + lease.components.seconds * 1000 + lease.components.attoseconds / 1_000_000_000_000_000
            var claimed: [ClaimedRow] = []
            try db.query(
                """
                UPDATE \(table) SET lease_until = ? WHERE rowid IN (
                    SELECT rowid FROM \(table) WHERE due_at <= ? AND lease_until <= ? ORDER BY due_at LIMIT ?)
                RETURNING \(columns), generation, attempts, enqueued_at
                """, [.integer(until), .integer(now), .integer(now), .integer(Int64(limit))]
            ) { row in
                claimed.append(
                    ClaimedRow(
                        key: (row.text(0) ?? "", row.text(1) ?? ""), generation: row.integer(2), attempts: Int(row.integer(3)),
                        enqueuedAt: Date(timeIntervalSince1970: Double(row.integer(4)) / 1000)))
            }
            return claimed
        }
    }

    /// Settles a claimed row in the caller's transaction: done, it leaves the queue; with `retryAt`, it is due again
    /// then, one attempt more. A row a newer change owes again (another generation) is freed for the next claim.
    static func settleRow(
        _ db: SQLiteConnection, of queue: Queue, key: (String, String), generation: Int64, retryAt: Date? = nil
    ) throws {
        let (table, keys) = (queue.table, queue.keys)
        let values: [SQLiteConnection.Value] = [.text(key.0), .text(key.1)]
        if let retryAt {
            try db.query(
                """
                UPDATE \(table) SET due_at = ?, lease_until = 0, attempts = attempts + 1
                WHERE \(keys.0) = ? AND \(keys.1) = ? AND generation = ?
                """, [.integer(milliseconds(retryAt))] + values + [.integer(generation)])
        } else {
            try db.query("DELETE FROM \(table) WHERE \(keys.0) = ? AND \(keys.1) = ? AND generation = ?", values + [.integer(generation)])
        }
        if db.changes == 0 {
            try db.query("UPDATE \(table) SET lease_until = 0 WHERE \(keys.0) = ? AND \(keys.1) = ?", values)
        }
    }

    /// How many rows `queue` holds, how many are due, and since when the oldest is owed.
    func queueStatus(of queue: Queue) throws -> PushQueueStatus {
        try queueStatus(from: queue.table, since: "enqueued_at")
    }

    public func webhookQueueStatus() async throws -> PushQueueStatus {
        try queueStatus(from: "webhook_deliveries", since: "at", owed: "delivered_at IS NULL AND failed_at IS NULL")
    }

    /// How many rows of `table` are owed (`owed`), how many are due now, and the oldest's `since`.
    private func queueStatus(from table: String, since: String, owed: String = "1") throws -> PushQueueStatus {
        try read { db in
            var status = PushQueueStatus(depth: 0, due: 0, oldestEnqueuedAt: nil)
            try db.query(
                "SELECT COUNT(*), MIN(\(since)), COUNT(*) FILTER (WHERE due_at <= ?) FROM \(table) WHERE \(owed)",
                [.integer(Self.milliseconds(self.clock()))]
            ) { row in
                status.depth = Int(row.integer(0))
                status.due = Int(row.integer(2))
                if status.depth > 0 { status.oldestEnqueuedAt = Date(timeIntervalSince1970: Double(row.integer(1)) / 1000) }
            }
            return status
        }
    }
}
