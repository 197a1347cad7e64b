import Foundation

/// The durable queue of Google Wallet object patches on SQLite (`google_outbox`): owed by
/// ``SQLitePassStore/change(passTypeIdentifier:serialNumber:_:basedOn:)`` in the change's transaction for a pass
/// whose object Google holds (`google_objects`), claimed with a lease and settled by the service's worker, like the
/// push queue.
extension SQLitePassStore {
    /// Owes the pass's Google object a patch when Google holds one, in the caller's transaction.
    static func oweGoogleUpdate(_ db: SQLiteConnection, _ type: String, _ serial: String, now: Date) throws {
        let time = milliseconds(now)
        try db.query(
            """
            INSERT INTO google_outbox (pass_type_id, serial_number, generation, due_at, lease_until, attempts, enqueued_at)
            SELECT ?, ?, 1, ?, 0, 0, ? WHERE EXISTS (SELECT 1 FROM google_objects WHERE pass_type_id = ? AND serial_number = ?)
            ON CONFLICT (pass_type_id, serial_number) DO UPDATE SET generation = generation + 1, due_at = excluded.due_at, attempts = 0
            """, [.text(type), .text(serial), .integer(time), .integer(time), .text(type), .text(serial)])
    }

    public func noteGoogleObject(passTypeIdentifier: String, serialNumber: String, updateTag: Int64) async throws {
        try await writer.write { db in
            let key: [SQLiteConnection.Value] = [.text(passTypeIdentifier), .text(serialNumber)]
            try db.query("INSERT OR IGNORE INTO google_objects (pass_type_id, serial_number) VALUES (?, ?)", key)
            var current: Int64?
            try db.query("SELECT update_tag FROM passes WHERE pass_type_id = ? AND serial_number = ?", key) { current = $0.integer(0) }
            // Changed since the version Google got: owed now (the change's own transaction saw no object yet).
            if let current, current != updateTag {
                try Self.oweGoogleUpdate(db, passTypeIdentifier, serialNumber, now: self.clock())
            }
        }
    }

    public func claimGoogleUpdates(limit: Int, lease: Duration) async throws -> [OwedGoogleUpdate] {
        // Looked at first with a read: a write makes the service's cached device answers stale.
        let due = try read { db in
            var found = false
            let now = Self.milliseconds(self.clock())
            try db.query("SELECT 1 FROM google_outbox WHERE due_at <= ? AND lease_until <= ? LIMIT 1", [.integer(now), .integer(now)]) {
                _ in found = true
            }
            return found
        }
        guard due else { return [] }
        return try await writer.write { db in
            let now = Self.milliseconds(self.clock())
            let until = now + lease.components.seconds * 1000 + lease.components.attoseconds / 1_000_000_000_000_000
            var claimed: [OwedGoogleUpdate] = []
            try db.query(
                """
                UPDATE google_outbox SET lease_until = ? WHERE rowid IN (
                    SELECT rowid FROM google_outbox WHERE due_at <= ? AND lease_until <= ? ORDER BY due_at LIMIT ?)
                RETURNING pass_type_id, serial_number, generation, attempts, enqueued_at
                """, [.integer(until), .integer(now), .integer(now), .integer(Int64(limit))]
            ) { row in
                claimed.append(
                    OwedGoogleUpdate(
                        passTypeIdentifier: row.text(0) ?? "", serialNumber: row.text(1) ?? "", generation: row.integer(2),
                        attempts: Int(row.integer(3)), enqueuedAt: Date(timeIntervalSince1970: Double(row.integer(4)) / 1000)))
            }
            return claimed
        }
    }

    public func settleGoogleUpdates(_ settlement: GoogleUpdateSettlement) async throws {
        try await writer.write { db in
            func key(_ update: OwedGoogleUpdate) -> [SQLiteConnection.Value] {
                [.text(update.passTypeIdentifier), .text(update.serialNumber)]
            }
            /// A newer change owes the patch again: free it for the next claim.
            func releaseIfOwedAgain(_ update: OwedGoogleUpdate) throws {
                if db.changes == 0 {
                    try db.query("UPDATE google_outbox SET lease_until = 0 WHERE pass_type_id = ? AND serial_number = ?", key(update))
                }
            }
            for update in settlement.done {
                try db.query(
                    "DELETE FROM google_outbox WHERE pass_type_id = ? AND serial_number = ? AND generation = ?",
                    key(update) + [.integer(update.generation)])
                try releaseIfOwedAgain(update)
            }
            for (update, at) in settlement.retry {
                try db.query(
                    """
                    UPDATE google_outbox SET due_at = ?, lease_until = 0, attempts = attempts + 1
                    WHERE pass_type_id = ? AND serial_number = ? AND generation = ?
                    """, [.integer(Self.milliseconds(at))] + key(update) + [.integer(update.generation)])
                try releaseIfOwedAgain(update)
            }
        }
    }

    public func googleQueueStatus() async throws -> PushQueueStatus {
        try read { db in
            var status = PushQueueStatus(depth: 0, due: 0, oldestEnqueuedAt: nil)
            try db.query(
                "SELECT COUNT(*), MIN(enqueued_at), COUNT(*) FILTER (WHERE due_at <= ?) FROM google_outbox",
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
