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
        let time = milliseconds(now)
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

    public func claimGoogleUpdates(limit: Int, lease: Duration) async throws -> [OwedGoogleUpdate] {
        try await claimRows(of: .googleObject, limit: limit, lease: lease).map {
            OwedGoogleUpdate(
                passTypeIdentifier: $0.key.0, serialNumber: $0.key.1, generation: $0.generation, attempts: $0.attempts,
                enqueuedAt: $0.enqueuedAt)
        }
    }

    /// Settles a round in one transaction (``settleRows(_:of:done:retry:alsoLocking:)``).
    public func settleGoogleUpdates(_ settlement: GoogleUpdateSettlement) async throws {
        try await write(notify: false) { connection in
            let key = { (update: OwedGoogleUpdate) in (update.passTypeIdentifier, update.serialNumber) }
            try await settleRows(
                connection, of: .googleObject, done: settlement.done.map { (key($0), $0.generation) },
                retry: settlement.retry.map { (key($0.update), $0.update.generation, $0.at) })
        }
    }

    public func googleQueueStatus() async throws -> PushQueueStatus { try await queueStatus(of: .googleObject) }

    public func googleObjectState(passTypeIdentifier: String, serialNumber: String) async throws -> GoogleObjectState? {
        let rows = try await clients.query(
            """
            SELECT g.object_id, COALESCE(o.attempts, 0)::int8, o.due_at FROM google_objects g
            LEFT JOIN google_outbox o ON o.pass_type_id = g.pass_type_id AND o.serial_number = g.serial_number
            WHERE g.pass_type_id = \(passTypeIdentifier) AND g.serial_number = \(serialNumber)
            """, logger: logger)
        for try await (objectID, attempts, dueAt) in rows.decode((String?, Int64, Int64?).self) {
            let due = dueAt.map { Date(timeIntervalSince1970: Double($0) / 1000) }
            return GoogleObjectState(objectID: objectID, pending: due != nil, attempts: Int(attempts), dueAt: due)
        }
        return nil
    }
}
