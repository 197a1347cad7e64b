import Foundation
import Logging
public import PassmintStore
import PostgresNIO

/// The durable push queue on PostgreSQL, shared by every service node: a claim takes due rows with
/// `FOR UPDATE SKIP LOCKED` and leases them, so two nodes never claim the same push, and a node that dies holding a
/// lease loses it when the lease ends.
extension PostgresPassStore {
    public func claimPushes(limit: Int, lease: Duration) async throws -> [Owed<PushTarget>] {
        try await claimRows(of: .applePush, limit: limit, lease: lease) { PushTarget(pushToken: $0, passTypeIdentifier: $1) }
    }

    /// Settles a whole round in one transaction (``settleRows(_:of:_:key:)``); gone tokens lose their registrations,
    /// devices and what they are owed. A round whose every push was delivered settles in one statement
    /// (``SettleDeliveredPushesStatement``).
    public func settlePushes(_ settlement: OutboxSettlement<PushTarget>) async throws {
        guard !settlement.rows.isEmpty else { return }
        if settlement.rows.allSatisfy({ $0.outcome == .done }) { return try await settleDelivered(settlement) }
        try await write(notify: false) { connection in
            try await settleRows(connection, of: .applePush, settlement) { ($0.pushToken, $0.passTypeIdentifier) }
            let retry = settlement.retry.map(\.owed)
            if !retry.isEmpty { try await recordFailedPushes(connection, retry) }
            let gone = Array(Set(settlement.givenUp.map(\.pushToken)))
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
                try await connection.query("DELETE FROM push_outbox WHERE push_token = ANY(\(gone)::text[])", logger: logger)
            }
            let results = settlement.rows.compactMap { row in row.note.map { (push: row.owed, resultJSON: $0) } }
            if !results.isEmpty {
                let now = PassEvent.milliseconds(clock())
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

    /// A round of delivered pushes settled in one statement that commits on its own and notifies no other node.
    private func settleDelivered(_ settlement: OutboxSettlement<PushTarget>) async throws {
        let statement = SettleDeliveredPushesStatement(
            delivered: settlement.done, results: settlement.rows.compactMap { row in row.note.map { (row.owed, $0) } },
            now: PassEvent.milliseconds(clock()))
        defer { changeFeed.noteCommit(passes: false) }
        try await clients.withConnection { connection in
            for try await _ in try await connection.execute(statement, logger: logger) {}
        }
    }

    /// `push.failed` for each push to retry, its device named by hash.
    private func recordFailedPushes(_ connection: PostgresConnection, _ pushes: [Owed<PushTarget>]) async throws {
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
