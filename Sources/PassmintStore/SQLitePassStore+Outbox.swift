import Foundation

/// The durable push queue on SQLite: owed pushes are written by
/// ``SQLitePassStore/change(passTypeIdentifier:serialNumber:_:basedOn:)`` in the change's transaction, and claimed and settled by the service's pusher. One process writes the file, so a
/// claim is a lease only against a pusher that died holding it.
extension SQLitePassStore {
    /// Owes every distinct token a push for the pass type, in the caller's transaction.
    static func owePushes(_ db: SQLiteConnection, tokens: [String], passTypeIdentifier: String, now: Date = Date()) throws {
        let time = PassEvent.milliseconds(now)
        for token in Set(tokens).sorted() {
            try db.query(
                """
                INSERT INTO push_outbox (push_token, pass_type_id, generation, due_at, lease_until, attempts, enqueued_at)
                VALUES (?, ?, 1, ?, 0, 0, ?) ON CONFLICT (push_token, pass_type_id)
                DO UPDATE SET generation = generation + 1, due_at = excluded.due_at, attempts = 0
                """, [.text(token), .text(passTypeIdentifier), .integer(time), .integer(time)])
        }
    }

    public func claimPushes(limit: Int, lease: Duration) async throws -> [Owed<PushTarget>] {
        try await claimRows(of: .applePush, limit: limit, lease: lease) { PushTarget(pushToken: $0, passTypeIdentifier: $1) }
    }

    public func settlePushes(_ settlement: OutboxSettlement<PushTarget>) async throws {
        try await writer.write { db in
            try Self.settleRows(db, of: .applePush, settlement) { ($0.pushToken, $0.passTypeIdentifier) }
            let failedAt = self.clock()
            for (push, _) in settlement.retry {
                var device: String?
                try db.query("SELECT device_library_id FROM devices WHERE push_token = ? LIMIT 1", [.text(push.pushToken)]) {
                    device = $0.text(0)
                }
                try Self.insertEvents(
                    db,
                    [
                        PassEvent(
                            kind: .pushFailed, passTypeIdentifier: push.passTypeIdentifier, serialNumber: "", template: "",
                            at: failedAt, deviceHash: try device.flatMap { try self.deviceHash(db, $0) })
                    ])
            }
            for push in settlement.givenUp {
                let token: [SQLiteConnection.Value] = [.text(push.pushToken)]
                try self.recordDeadToken(db, push.pushToken, at: failedAt)
                try db.query(
                    "DELETE FROM registrations WHERE device_library_id IN (SELECT device_library_id FROM devices WHERE push_token = ?)",
                    token)
                try db.query("DELETE FROM devices WHERE push_token = ?", token)
                try db.query("DELETE FROM push_outbox WHERE push_token = ?", token)
            }
            let now = PassEvent.milliseconds(self.clock())
            for row in settlement.rows {
                guard let result = row.note else { continue }
                try db.query(
                    """
                    INSERT INTO push_results (push_token, pass_type_id, result, at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (push_token, pass_type_id) DO UPDATE SET result = excluded.result, at = excluded.at
                    """, [.text(row.owed.pushToken), .text(row.owed.passTypeIdentifier), .text(result), .integer(now)])
            }
        }
    }

    /// Before a dead token's registrations go: `token.dead` for each, and `removed` for the passes it was the last
    /// device of.
    private func recordDeadToken(_ db: SQLiteConnection, _ token: String, at: Date) throws {
        var lost: [(device: String, type: String, serial: String)] = []
        try db.query(
            """
            SELECT r.device_library_id, r.pass_type_id, r.serial_number FROM registrations r
            JOIN devices d ON d.device_library_id = r.device_library_id WHERE d.push_token = ?
            """, [.text(token)]
        ) { lost.append((device: $0.text(0) ?? "", type: $0.text(1) ?? "", serial: $0.text(2) ?? "")) }
        var removed: Set<[String]> = []
        for registration in lost {
            let hash = try deviceHash(db, registration.device)
            try Self.insertPassEvent(db, .tokenDead, registration.type, registration.serial, at: at, deviceHash: hash)
            // Two devices with one dead token on one pass: removed once.
            guard removed.insert([registration.type, registration.serial]).inserted else { continue }
            try Self.recordRemovalIfLast(
                db, registration.type, registration.serial, leavingToken: token, at: at, deviceHash: hash)
        }
    }

    public func pushStates(passTypeIdentifier: String, serialNumber: String) async throws -> [DevicePushState] {
        try read { db in
            var states: [DevicePushState] = []
            try db.query(
                """
                SELECT d.device_library_id,
                    EXISTS (SELECT 1 FROM push_outbox o WHERE o.push_token = d.push_token AND o.pass_type_id = r.pass_type_id),
                    (SELECT pr.result FROM push_results pr WHERE pr.push_token = d.push_token AND pr.pass_type_id = r.pass_type_id)
                FROM registrations r JOIN devices d ON d.device_library_id = r.device_library_id
                WHERE r.pass_type_id = ? AND r.serial_number = ? ORDER BY d.device_library_id
                """, [.text(passTypeIdentifier), .text(serialNumber)]
            ) { row in
                states.append(
                    DevicePushState(deviceLibraryIdentifier: row.text(0) ?? "", pending: row.integer(1) != 0, lastResultJSON: row.text(2)))
            }
            return states
        }
    }
}
