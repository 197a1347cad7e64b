import Foundation
import Logging
public import PassmintStore
import PostgresNIO

/// The durable queue of Google Wallet object patches on PostgreSQL (`google_outbox`), shared by every service node:
/// owed in the change's transaction for a pass whose object Google holds (`google_objects`); a claim takes due rows
/// with `FOR UPDATE SKIP LOCKED` and leases them, so two nodes never patch for the same row at once, and a node that
/// dies holding a lease loses it when the lease ends.
extension PostgresPassStore {
    /// Owes the pass's Google object a patch when Google holds one, in the caller's transaction.
    static func oweGoogleUpdate(
        _ connection: PostgresConnection, _ type: String, _ serial: String, _ logger: Logger, now: Date
    ) async throws {
        let time = PassEvent.milliseconds(now)
        try await connection.query(
            """
            INSERT INTO google_outbox (pass_type_id, serial_number, generation, due_at, lease_until, attempts, enqueued_at)
            SELECT \(type), \(serial), 1, \(time), 0, 0, \(time)
            WHERE EXISTS (SELECT 1 FROM google_objects WHERE pass_type_id = \(type) AND serial_number = \(serial))
            ON CONFLICT (pass_type_id, serial_number)
            DO UPDATE SET generation = google_outbox.generation + 1, due_at = excluded.due_at, attempts = 0
            """, logger: logger)
    }

    public func noteGoogleObject(passTypeIdentifier: String, serialNumber: String, objectID: String, updateTag: Int64) async throws {
        try await write(notify: false) { connection in
            let (type, serial) = (passTypeIdentifier, serialNumber)
            try await connection.query(
                """
                INSERT INTO google_objects (pass_type_id, serial_number, object_id) VALUES (\(type), \(serial), \(objectID))
                ON CONFLICT (pass_type_id, serial_number) DO UPDATE SET object_id = excluded.object_id
                """, logger: logger)
            // Under the pass's lock: a change that committed before it saw no object and owed nothing; one after it
            // sees the object and owes the patch itself.
            let rows = try await connection.query(
                "SELECT update_tag FROM passes WHERE pass_type_id = \(type) AND serial_number = \(serial) FOR UPDATE", logger: logger)
            var current: Int64?
            for try await tag in rows.decode(Int64.self) { current = tag }
            if let current, current != updateTag {
                try await Self.oweGoogleUpdate(connection, type, serial, logger, now: clock())
            }
        }
    }

    public func claimGoogleUpdates(limit: Int, lease: Duration) async throws -> [Owed<PassKey>] {
        try await claimRows(of: .googleObject, limit: limit, lease: lease) { PassKey(passTypeIdentifier: $0, serialNumber: $1) }
    }

    /// Settles a round in one transaction (``settleRows(_:of:_:key:)``).
    public func settleGoogleUpdates(_ settlement: OutboxSettlement<PassKey>) async throws {
        try await write(notify: false) { connection in
            try await settleRows(connection, of: .googleObject, settlement) { ($0.passTypeIdentifier, $0.serialNumber) }
        }
    }

    public func googleObjectState(passTypeIdentifier: String, serialNumber: String) async throws -> GoogleObjectState? {
        let rows = try await clients.query(
            """
            SELECT g.object_id, COALESCE(o.attempts, 0)::int8, o.due_at FROM google_objects g
            LEFT JOIN google_outbox o ON o.pass_type_id = g.pass_type_id AND o.serial_number = g.serial_number
            WHERE g.pass_type_id = \(passTypeIdentifier) AND g.serial_number = \(serialNumber)
            """, logger: logger)
        for try await (objectID, attempts, dueAt) in rows.decode((String?, Int64, Int64?).self) {
            let due = dueAt.map { PassEvent.date(milliseconds: $0) }
            return GoogleObjectState(objectID: objectID, pending: due != nil, attempts: Int(attempts), dueAt: due)
        }
        return nil
    }
}
