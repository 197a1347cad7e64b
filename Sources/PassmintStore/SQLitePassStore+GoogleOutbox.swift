import Foundation

/// The durable queue of Google Wallet object patches on SQLite (`google_outbox`): owed by
/// ``SQLitePassStore/change(passTypeIdentifier:serialNumber:_:basedOn:)`` in the change's transaction for a pass
/// whose object Google holds (`google_objects`), claimed with a lease and settled by the service's worker, like the
/// push queue.
extension SQLitePassStore {
    /// Owes the pass's Google object a patch when Google holds one, in the caller's transaction.
    static func oweGoogleUpdate(_ db: SQLiteConnection, _ type: String, _ serial: String, now: Date) throws {
        let time = PassEvent.milliseconds(now)
        try db.query(
            """
            INSERT INTO google_outbox (pass_type_id, serial_number, generation, due_at, lease_until, attempts, enqueued_at)
            SELECT ?, ?, 1, ?, 0, 0, ? WHERE EXISTS (SELECT 1 FROM google_objects WHERE pass_type_id = ? AND serial_number = ?)
            ON CONFLICT (pass_type_id, serial_number) DO UPDATE SET generation = generation + 1, due_at = excluded.due_at, attempts = 0
            """, [.text(type), .text(serial), .integer(time), .integer(time), .text(type), .text(serial)])
    }

    public func noteGoogleObject(passTypeIdentifier: String, serialNumber: String, objectID: String, updateTag: Int64) async throws {
        try await writer.write { db in
            let key: [SQLiteConnection.Value] = [.text(passTypeIdentifier), .text(serialNumber)]
            try db.query(
                """
                INSERT INTO google_objects (pass_type_id, serial_number, object_id) VALUES (?, ?, ?)
                ON CONFLICT (pass_type_id, serial_number) DO UPDATE SET object_id = excluded.object_id
                """, key + [.text(objectID)])
            var current: Int64?
            try db.query("SELECT update_tag FROM passes WHERE pass_type_id = ? AND serial_number = ?", key) { current = $0.integer(0) }
            // Changed since the version Google got: owed now (the change's own transaction saw no object yet).
            if let current, current != updateTag {
                try Self.oweGoogleUpdate(db, passTypeIdentifier, serialNumber, now: self.clock())
            }
        }
    }

    public func claimGoogleUpdates(limit: Int, lease: Duration) async throws -> [Owed<PassKey>] {
        try await claimRows(of: .googleObject, limit: limit, lease: lease) { PassKey(passTypeIdentifier: $0, serialNumber: $1) }
    }

    public func settleGoogleUpdates(_ settlement: OutboxSettlement<PassKey>) async throws {
        try await writer.write { db in try Self.settleRows(db, of: .googleObject, settlement) { ($0.passTypeIdentifier, $0.serialNumber) } }
    }

    public func googleObjectState(passTypeIdentifier: String, serialNumber: String) async throws -> GoogleObjectState? {
        try read { db in
            var state: GoogleObjectState?
            try db.query(
                """
                SELECT g.object_id, COALESCE(o.attempts, 0), COALESCE(o.due_at, -1) FROM google_objects g
                LEFT JOIN google_outbox o ON o.pass_type_id = g.pass_type_id AND o.serial_number = g.serial_number
                WHERE g.pass_type_id = ? AND g.serial_number = ?
                """, [.text(passTypeIdentifier), .text(serialNumber)]
            ) { row in
                let due = row.integer(2) < 0 ? nil : PassEvent.date(milliseconds: row.integer(2))
                state = GoogleObjectState(objectID: row.text(0), pending: due != nil, attempts: Int(row.integer(1)), dueAt: due)
            }
            return state
        }
    }
}
