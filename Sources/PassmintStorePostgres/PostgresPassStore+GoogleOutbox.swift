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
        guard try await finds({ now in "SELECT 1 FROM google_outbox WHERE due_at <= \(now) AND lease_until <= \(now) LIMIT 1" }) else {
            return []
        }
        return try await claiming(lease: lease) { connection, now, until in
            let rows = try await connection.query(
                """
                UPDATE google_outbox o SET lease_until = \(until) FROM (
                    SELECT pass_type_id, serial_number FROM google_outbox WHERE due_at <= \(now) AND lease_until <= \(now)
                    ORDER BY due_at LIMIT \(limit) FOR UPDATE SKIP LOCKED) c
                WHERE o.pass_type_id = c.pass_type_id AND o.serial_number = c.serial_number
                RETURNING o.pass_type_id, o.serial_number, o.generation, o.attempts, o.enqueued_at
                """, logger: logger)
            var claimed: [OwedGoogleUpdate] = []
            for try await (type, serial, generation, attempts, enqueued) in rows.decode((String, String, Int64, Int32, Int64).self) {
                claimed.append(
                    OwedGoogleUpdate(
                        passTypeIdentifier: type, serialNumber: serial, generation: generation, attempts: Int(attempts),
                        enqueuedAt: Date(timeIntervalSince1970: Double(enqueued) / 1000)))
            }
            return claimed
        }
    }

    /// Settles a round in one transaction; a patch settled for an older generation is released for the next claim.
    public func settleGoogleUpdates(_ settlement: GoogleUpdateSettlement) async throws {
        try await write(notify: false) { connection in
            var again: [OwedGoogleUpdate] = []
            for update in settlement.done {
                let (type, serial, generation) = (update.passTypeIdentifier, update.serialNumber, update.generation)
                let rows = try await connection.query(
                    """
                    DELETE FROM google_outbox WHERE pass_type_id = \(type) AND serial_number = \(serial) AND generation = \(generation)
                    RETURNING 1
                    """, logger: logger)
                var deleted = false
                for try await _ in rows { deleted = true }
                if !deleted { again.append(update) }
            }
            for (update, at) in settlement.retry {
                let (type, serial, generation, due) = (
                    update.passTypeIdentifier, update.serialNumber, update.generation, Self.milliseconds(at)
                )
                let rows = try await connection.query(
                    """
                    UPDATE google_outbox SET due_at = \(due), lease_until = 0, attempts = attempts + 1
                    WHERE pass_type_id = \(type) AND serial_number = \(serial) AND generation = \(generation) RETURNING 1
                    """, logger: logger)
                var updated = false
                for try await _ in rows { updated = true }
                if !updated { again.append(update) }
            }
            for update in again {
                let (type, serial) = (update.passTypeIdentifier, update.serialNumber)
                try await connection.query(
                    "UPDATE google_outbox SET lease_until = 0 WHERE pass_type_id = \(type) AND serial_number = \(serial)", logger: logger)
            }
        }
    }

    public func googleQueueStatus() async throws -> PushQueueStatus { try await queueStatus(of: "google_outbox") }

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
