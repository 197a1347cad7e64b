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
        guard try await finds({ now in "SELECT 1 FROM push_outbox WHERE due_at <= \(now) AND lease_until <= \(now) LIMIT 1" }) else {
            return []
        }
        return try await claiming(lease: lease) { connection, now, until in
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

    /// Settles a whole round in one transaction of a few set-based statements (arrays through `UNNEST`), whatever
    /// its size: a push settled for an older generation is released for the next claim instead.
    public func settlePushes(_ settlement: PushSettlement) async throws {
        try await write(notify: false) { connection in
            try await lockOutboxRows(connection, settlement.delivered + settlement.retry.map(\.push) + settlement.unregistered)
            var settled: Set<PushKey> = []
            let delivered = settlement.delivered
            if !delivered.isEmpty {
                let rows = try await connection.query(
                    """
                    DELETE FROM push_outbox o USING UNNEST(\(delivered.map(\.pushToken))::text[], \(delivered.map(\.passTypeIdentifier))::text[],
                        \(delivered.map(\.generation))::bigint[]) AS d(t, p, g)
                    WHERE o.push_token = d.t AND o.pass_type_id = d.p AND o.generation = d.g RETURNING o.push_token, o.pass_type_id
                    """, logger: logger)
                for try await (token, type) in rows.decode((String, String).self) { settled.insert(PushKey(token, type)) }
            }
            let retry = settlement.retry
            if !retry.isEmpty {
                try await recordFailedPushes(connection, retry.map(\.push))
                let rows = try await connection.query(
                    """
                    UPDATE push_outbox o SET due_at = d.due, lease_until = 0, attempts = o.attempts + 1
                    FROM UNNEST(\(retry.map(\.push.pushToken))::text[], \(retry.map(\.push.passTypeIdentifier))::text[],
                        \(retry.map(\.push.generation))::bigint[], \(retry.map { Self.milliseconds($0.at) })::bigint[]) AS d(t, p, g, due)
                    WHERE o.push_token = d.t AND o.pass_type_id = d.p AND o.generation = d.g RETURNING o.push_token, o.pass_type_id
                    """, logger: logger)
                for try await (token, type) in rows.decode((String, String).self) { settled.insert(PushKey(token, type)) }
            }
            // Owed again by a newer change while they were out: free them for the next claim.
            let again = (delivered + retry.map(\.push)).filter { !settled.contains(PushKey($0.pushToken, $0.passTypeIdentifier)) }
            if !again.isEmpty {
                try await connection.query(
                    """
                    UPDATE push_outbox o SET lease_until = 0 FROM UNNEST(\(again.map(\.pushToken))::text[],
                        \(again.map(\.passTypeIdentifier))::text[]) AS d(t, p) WHERE o.push_token = d.t AND o.pass_type_id = d.p
                    """, logger: logger)
            }
            let gone = Array(Set(settlement.unregistered.map(\.pushToken)))
            if !gone.isEmpty {
                let lost = try await deadTokensRegistrations(connection, gone)
                try await Self.lockPasses(connection, lost.map { ($0.type, $0.serial) }, logger)
                try await connection.query(
                    """
                    DELETE FROM registrations WHERE device_library_id IN (
                        SELECT device_library_id FROM devices WHERE push_token = ANY(\(gone)::text[]))
                    """, logger: logger)
                try await Self.recordLeaving(connection, lost, kind: .tokenDead, at: clock(), logger)
                try await connection.query("DELETE FROM devices WHERE push_token = ANY(\(gone)::text[])", logger: logger)
                try await connection.query(
                    """
                    DELETE FROM order_registrations WHERE device_library_id IN (
                        SELECT device_library_id FROM order_devices WHERE push_token = ANY(\(gone)::text[]))
                    """, logger: logger)
                try await connection.query("DELETE FROM order_devices WHERE push_token = ANY(\(gone)::text[])", logger: logger)
                try await connection.query("DELETE FROM push_outbox WHERE push_token = ANY(\(gone)::text[])", logger: logger)
            }
            let results = settlement.results
            if !results.isEmpty {
                let now = Self.milliseconds(clock())
                try await connection.query(
                    """
                    INSERT INTO push_results (push_token, pass_type_id, result, at)
                    SELECT t, p, r, \(now) FROM UNNEST(\(results.map(\.push.pushToken))::text[], \(results.map(\.push.passTypeIdentifier))::text[],
                        \(results.map(\.resultJSON))::text[]) AS d(t, p, r)
                    ON CONFLICT (push_token, pass_type_id) DO UPDATE SET result = excluded.result, at = excluded.at
                    """, logger: logger)
            }
        }
    }

    /// Locks the queue's rows of `pushes` in key order (byte order, as Swift sorts the keys), the order in which changes
    /// write them. Without it the settlement's `DELETE … USING UNNEST` locked them in the join's order, and a group of
    /// changes on another node and the settlement waited for each other until PostgreSQL broke the deadlock by rolling
    /// one back (the campaign saw about a hundred groups of 256 changes rolled back and written again one at a time).
    private func lockOutboxRows(_ connection: PostgresConnection, _ pushes: [OwedPush]) async throws {
        guard !pushes.isEmpty else { return }
        let rows = try await connection.query(
            """
            SELECT 1 FROM push_outbox o
            JOIN (SELECT DISTINCT t, p FROM UNNEST(\(pushes.map(\.pushToken))::text[], \(pushes.map(\.passTypeIdentifier))::text[]) AS k(t, p)) k
                ON o.push_token = k.t AND o.pass_type_id = k.p
            ORDER BY o.push_token COLLATE "C", o.pass_type_id COLLATE "C" FOR UPDATE OF o
            """, logger: logger)
        for try await _ in rows {}
    }

    /// `push.failed` for each push to retry, its device named by hash.
    private func recordFailedPushes(_ connection: PostgresConnection, _ pushes: [OwedPush]) async throws {
        let rows = try await connection.query(
            """
            SELECT DISTINCT ON (push_token) push_token, device_library_id FROM devices
            WHERE push_token = ANY(\(Array(Set(pushes.map(\.pushToken))))::text[]) ORDER BY push_token, device_library_id
            """, logger: logger)
        var devices: [String: String] = [:]
        for try await (token, device) in rows.decode((String, String).self) { devices[token] = device }
        var events: [PassEvent] = []
        let now = clock()
        for push in pushes {
            var hash: String?
            if let device = devices[push.pushToken] { hash = try await deviceHash(device) }
            events.append(
                PassEvent(
                    kind: .pushFailed, passTypeIdentifier: push.passTypeIdentifier, serialNumber: "", template: "", at: now,
                    deviceHash: hash))
        }
        try await Self.insertEvents(connection, events, logger)
    }

    /// The registrations of dead tokens (pass type, serial, device hash), before they go: each is recorded as
    /// `token.dead`, and `removed` for the passes they were the last devices of (see `recordLeaving`).
    private func deadTokensRegistrations(
        _ connection: PostgresConnection, _ tokens: [String]
    ) async throws -> [(type: String, serial: String, hash: String)] {
        let rows = try await connection.query(
            """
            SELECT r.device_library_id, r.pass_type_id, r.serial_number FROM registrations r
            JOIN devices d ON d.device_library_id = r.device_library_id WHERE d.push_token = ANY(\(tokens)::text[])
            """, logger: logger)
        var lost: [(type: String, serial: String, hash: String)] = []
        for try await (device, type, serial) in rows.decode((String, String, String).self) {
            lost.append((type, serial, try await deviceHash(device)))
        }
        return lost
    }

    /// A row of the queue: push token and pass type.
    private struct PushKey: Hashable {
        var token: String
        var type: String
        init(_ token: String, _ type: String) {
            self.token = token
            self.type = type
        }
    }

    public func pushQueueStatus() async throws -> PushQueueStatus { try await queueStatus(of: "push_outbox") }

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
