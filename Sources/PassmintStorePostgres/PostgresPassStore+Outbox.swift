import Foundation
import Logging
public import PassmintStore
import PostgresNIO

/// The durable push queue on PostgreSQL, shared by every service node: a claim takes due rows with
/// `FOR UPDATE SKIP LOCKED` and leases them, so two nodes never claim the same push, and a node that dies holding a
/// lease loses it when the lease ends.
extension PostgresPassStore {
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// Owes every distinct token a push for the pass type, in the caller's transaction.
    static func owePushes(
        _ connection: PostgresConnection, tokens: [String], passTypeIdentifier: String, _ logger: Logger, now: Date = Date()
    ) async throws {
        let unique = Set(tokens).sorted()
        guard !unique.isEmpty else { return }
        let time = milliseconds(now)
        try await connection.query(
            """
            INSERT INTO push_outbox (push_token, pass_type_id, generation, due_at, lease_until, attempts, enqueued_at)
            SELECT t, \(passTypeIdentifier), 1, \(time), 0, 0, \(time) FROM UNNEST(\(unique)::text[]) AS t
            ON CONFLICT (push_token, pass_type_id)
            DO UPDATE SET generation = push_outbox.generation + 1, due_at = excluded.due_at, attempts = 0
            """, logger: logger)
    }

    public func claimPushes(limit: Int, lease: Duration) async throws -> [OwedPush] {
        // Looked at first with a read: a write makes this node's cached device answers stale, and an idle pusher
        // looks several times a second.
        let due = try await client.withConnection { connection in
            let now = Self.milliseconds(Date())
            let rows = try await connection.query(
                "SELECT 1 FROM push_outbox WHERE due_at <= \(now) AND lease_until <= \(now) LIMIT 1", logger: logger)
            for try await _ in rows { return true }
            return false
        }
        guard due else { return [] }
        return try await write(notify: false) { connection in
            let now = Self.milliseconds(Date())
            let until = now + lease.components.seconds * 1000 + lease.components.attoseconds / 1_000_000_000_000_000
            let rows = try await connection.query(
                """
                UPDATE push_outbox o SET lease_until = \(until) FROM (
                    SELECT push_token, pass_type_id FROM push_outbox WHERE due_at <= \(now) AND lease_until <= \(now)
                    ORDER BY due_at LIMIT \(limit) FOR UPDATE SKIP LOCKED) c
                WHERE o.push_token = c.push_token AND o.pass_type_id = c.pass_type_id
                RETURNING o.push_token, o.pass_type_id, o.generation, o.attempts, o.enqueued_at
                """, logger: logger)
            var claimed: [OwedPush] = []
            for try await (token, type, generation, attempts, enqueued) in rows.decode((String, String, Int64, Int32, Int64).self) {
                claimed.append(
                    OwedPush(
                        pushToken: token, passTypeIdentifier: type, generation: generation, attempts: Int(attempts),
                        enqueuedAt: Date(timeIntervalSince1970: Double(enqueued) / 1000)))
            }
            return claimed
        }
    }

    public func settlePushes(_ settlement: PushSettlement) async throws {
        try await write(notify: false) { connection in
            /// A newer change owes the push again: free it for the next claim.
            func releaseIfOwedAgain(_ push: OwedPush, _ settled: PostgresRowSequence) async throws {
                var done = false
                for try await _ in settled { done = true }
                if !done {
                    try await connection.query(
                        "UPDATE push_outbox SET lease_until = 0 WHERE push_token = \(push.pushToken) AND pass_type_id = \(push.passTypeIdentifier)",
                        logger: logger)
                }
            }
            for push in settlement.delivered {
                let settled = try await connection.query(
                    """
                    DELETE FROM push_outbox WHERE push_token = \(push.pushToken) AND pass_type_id = \(push.passTypeIdentifier)
                    AND generation = \(push.generation) RETURNING 1
                    """, logger: logger)
                try await releaseIfOwedAgain(push, settled)
            }
            for (push, at) in settlement.retry {
                let settled = try await connection.query(
                    """
                    UPDATE push_outbox SET due_at = \(Self.milliseconds(at)), lease_until = 0, attempts = attempts + 1
                    WHERE push_token = \(push.pushToken) AND pass_type_id = \(push.passTypeIdentifier) AND generation = \(push.generation)
                    RETURNING 1
                    """, logger: logger)
                try await releaseIfOwedAgain(push, settled)
            }
            for push in settlement.unregistered {
                let token = push.pushToken
                try await connection.query(
                    "DELETE FROM registrations WHERE device_library_id IN (SELECT device_library_id FROM devices WHERE push_token = \(token))",
                    logger: logger)
                try await connection.query("DELETE FROM devices WHERE push_token = \(token)", logger: logger)
                try await connection.query("DELETE FROM push_outbox WHERE push_token = \(token)", logger: logger)
            }
            let now = Self.milliseconds(Date())
            for (push, result) in settlement.results {
                try await connection.query(
                    """
                    INSERT INTO push_results (push_token, pass_type_id, result, at) VALUES (\(push.pushToken), \(push.passTypeIdentifier), \(result), \(now))
                    ON CONFLICT (push_token, pass_type_id) DO UPDATE SET result = excluded.result, at = excluded.at
                    """, logger: logger)
            }
        }
    }

    public func pushQueueStatus() async throws -> PushQueueStatus {
        try await client.withConnection { connection in
            let now = Self.milliseconds(Date())
            let rows = try await connection.query(
                "SELECT COUNT(*), MIN(enqueued_at), COUNT(*) FILTER (WHERE due_at <= \(now)) FROM push_outbox", logger: logger)
            for try await (count, oldest, due) in rows.decode((Int64, Int64?, Int64).self) {
                return PushQueueStatus(
                    depth: Int(count), due: Int(due), oldestEnqueuedAt: oldest.map { Date(timeIntervalSince1970: Double($0) / 1000) })
            }
            return PushQueueStatus(depth: 0, due: 0, oldestEnqueuedAt: nil)
        }
    }

    public func pushStates(passTypeIdentifier: String, serialNumber: String) async throws -> [DevicePushState] {
        try await client.withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT d.device_library_id,
                    EXISTS (SELECT 1 FROM push_outbox o WHERE o.push_token = d.push_token AND o.pass_type_id = r.pass_type_id),
                    (SELECT pr.result FROM push_results pr WHERE pr.push_token = d.push_token AND pr.pass_type_id = r.pass_type_id)
                FROM registrations r JOIN devices d ON d.device_library_id = r.device_library_id
                WHERE r.pass_type_id = \(passTypeIdentifier) AND r.serial_number = \(serialNumber) ORDER BY d.device_library_id
                """, logger: logger)
            var states: [DevicePushState] = []
            for try await (device, pending, result) in rows.decode((String, Bool, String?).self) {
                states.append(DevicePushState(deviceLibraryIdentifier: device, pending: pending, lastResultJSON: result))
            }
            return states
        }
    }
}
