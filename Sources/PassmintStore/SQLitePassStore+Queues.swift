import Foundation

/// The durable outboxes on SQLite (``Outbox``): a row is owed with a due time, claimed with a lease, settled by its
/// generation (a row a newer change owes again stays owed), and counted for the outbox's status.
extension SQLitePassStore {
    /// One row a claim took: its key, generation, failed attempts and when it was first owed.
    struct ClaimedRow: Sendable {
        var key: (String, String)
        var generation: Int64
        var attempts: Int
        var enqueuedAt: Date
    }

    /// Whether `outbox` holds a row due and unclaimed now: the look a worker takes before it claims, with a read (a
    /// write, even one that changes nothing, makes the service's cached device answers stale, and an idle worker looks
    /// several times a second).
    func hasDue(_ outbox: Outbox) throws -> Bool {
        try read { db in
            var found = false
            let now = Self.milliseconds(self.clock())
            let query = "SELECT 1 FROM \(outbox.table) WHERE \(outbox.owed) AND due_at <= ? AND lease_until <= ? LIMIT 1"
            try db.query(query, [.integer(now), .integer(now)]) { _ in found = true }
            return found
        }
    }

    /// Claims up to `limit` due rows of a coalesced `outbox` for `lease`, the longest due first.
    func claimRows(of outbox: Outbox, limit: Int, lease: Duration) async throws -> [ClaimedRow] {
        guard try hasDue(outbox) else { return [] }
        let table = outbox.table
        return try await writer.write { db in
            let now = Self.milliseconds(self.clock())
            var claimed: [ClaimedRow] = []
            try db.query(
                """
                UPDATE \(table) SET lease_until = ? WHERE rowid IN (
                    SELECT rowid FROM \(table) WHERE due_at <= ? AND lease_until <= ? ORDER BY due_at LIMIT ?)
                RETURNING \(outbox.keys.0), \(outbox.keys.1), generation, attempts, enqueued_at
                """, [.integer(now + lease.milliseconds), .integer(now), .integer(now), .integer(Int64(limit))]
            ) { row in
                claimed.append(
                    ClaimedRow(
                        key: (row.text(0) ?? "", row.text(1) ?? ""), generation: row.integer(2), attempts: Int(row.integer(3)),
                        enqueuedAt: Date(timeIntervalSince1970: Double(row.integer(4)) / 1000)))
            }
            return claimed
        }
    }

    /// Settles a claimed row of a coalesced `outbox` in the caller's transaction: done, it leaves the outbox; with
    /// `retryAt`, it is due again then, one attempt more. A row a newer change owes again (another generation) is
    /// freed for the next claim.
    static func settleRow(
        _ db: SQLiteConnection, of outbox: Outbox, key: (String, String), generation: Int64, retryAt: Date? = nil
    ) throws {
        let (table, keys) = (outbox.table, outbox.keys)
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

    /// How many rows `outbox` owes, how many are due now, and since when the oldest is owed.
    func queueStatus(of outbox: Outbox) throws -> PushQueueStatus {
        try read { db in
            var status = PushQueueStatus(depth: 0, due: 0, oldestEnqueuedAt: nil)
            try db.query(
                "SELECT COUNT(*), MIN(\(outbox.since)), COUNT(*) FILTER (WHERE due_at <= ?) FROM \(outbox.table) WHERE \(outbox.owed)",
                [.integer(Self.milliseconds(self.clock()))]
            ) { row in
                status.depth = Int(row.integer(0))
                status.due = Int(row.integer(2))
                if status.depth > 0 { status.oldestEnqueuedAt = Date(timeIntervalSince1970: Double(row.integer(1)) / 1000) }
            }
            return status
        }
    }

    public func webhookQueueStatus() async throws -> PushQueueStatus { try queueStatus(of: .webhook) }
}
