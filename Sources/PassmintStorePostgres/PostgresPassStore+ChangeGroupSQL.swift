import Foundation
import Logging
import PassmintStore
import PostgresNIO

/// The statements of the group commit (`changeTogether`): two round trips for the whole group, whatever its size.
/// The first locks the passes and takes the transaction's tag; the second writes everything the changes owe. Rows are
/// locked in one order (the passes by key, then their push rows, then their Google rows) so that two groups never
/// wait crosswise.
extension PostgresPassStore {
    /// The passes of `keys` that exist, locked in key order, and the tag of the caller's transaction (see `nextTag`;
    /// nil when no pass exists: then nothing is written).
    static func lockPasses(
        _ connection: PostgresConnection, _ keys: Set<PassKey>, _ logger: Logger
    ) async throws -> (passes: [PassKey: StoredPass], tag: Int64?) {
        let sorted = keys.sorted()
        let rows = try await connection.query(
            """
            SELECT p.pass_type_id, p.serial_number, p.authentication_token, p.template, p.data, p.voided, p.update_tag, p.updated_at,
                p.last_push, p.personalization, p.erased_at, p.template_version,
                (SELECT pg_current_xact_id()::text::int8 + value FROM counters WHERE name = 'tag_base')
            FROM passes p JOIN UNNEST(\(sorted.map(\.passTypeIdentifier))::text[], \(sorted.map(\.serialNumber))::text[]) AS k(t, s)
            ON p.pass_type_id = k.t AND p.serial_number = k.s ORDER BY p.pass_type_id, p.serial_number FOR UPDATE OF p
            """, logger: logger)
        var found: [PassKey: StoredPass] = [:]
        var tag: Int64?
        for try await row in rows.decode(
            (String, String, String, String, String, Bool, Int64, Int64, String?, String?, Int64?, String?, Int64?).self)
        {
            let pass = PostgresSchema.pass((row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9, row.10, row.11))
            found[PassKey(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber)] = pass
            guard let base = row.12 else { throw tagBaseMissing }
            tag = base
        }
        return (found, tag)
    }

    /// Writes a group's new versions of locked passes (one each) with all they owe, in one statement: their `updated`
    /// events (and the webhook deliveries the events' trigger owes), a push to each (push token, pass type) of their
    /// devices, coalesced per pair, and a patch to each Google object they have. Answers the devices registered for
    /// each pass of `locked` (written or not), each pass's in device order, read in the same statement.
    ///
    /// The push rows are upserted in (token, pass type) byte order (as the push queue's settlement locks them, whatever
    /// the database's collation) and before the Google rows (the Google insert waits for them through its `count`), the
    /// Google rows in key order; the passes' rows were locked by ``lockPasses(_:_:_:)``.
    static func writeGroup(
        _ connection: PostgresConnection, _ versions: [StoredPass], events: [PassEvent], locked: [PassKey], _ logger: Logger, now: Date
    ) async throws -> [PassKey: [DeviceRegistration]] {
        let written = Set(versions.map { PassKey(passTypeIdentifier: $0.passTypeIdentifier, serialNumber: $0.serialNumber) })
        let google = written.sorted()
        let time = milliseconds(now)
        let rows = try await connection.query(
            """
            WITH versions AS (
                UPDATE passes p SET data = u.d, voided = u.v, personalization = CASE WHEN u.hp THEN u.pz END, update_tag = u.g,
                    updated_at = u.a, erased_at = CASE WHEN u.he THEN u.e END, template_version = NULLIF(u.tv, '')
                FROM UNNEST(\(versions.map(\.passTypeIdentifier))::text[], \(versions.map(\.serialNumber))::text[],
                    \(versions.map(\.dataJSON))::text[], \(versions.map(\.voided))::bool[],
                    \(versions.map { $0.personalizationJSON != nil })::bool[], \(versions.map { $0.personalizationJSON ?? "" })::text[],
                    \(versions.map(\.updateTag))::int8[], \(versions.map { Int64($0.updatedAt.timeIntervalSince1970) })::int8[],
                    \(versions.map { $0.erasedAt != nil })::bool[], \(versions.map { $0.erasedAt.map(PassEvent.milliseconds) ?? 0 })::int8[],
                    \(versions.map { $0.templateVersion ?? "" })::text[]) AS u(t, s, d, v, hp, pz, g, a, he, e, tv)
                WHERE p.pass_type_id = u.t AND p.serial_number = u.s RETURNING 1
            ), events AS (
                INSERT INTO pass_events (kind, pass_type_id, serial_number, template, at, device_hash, change_at)
                SELECT k, t, s, m, a, NULLIF(h, ''), NULLIF(c, -1) FROM UNNEST(\(events.map(\.kind.rawValue))::text[],
                    \(events.map(\.passTypeIdentifier))::text[], \(events.map(\.serialNumber))::text[], \(events.map(\.template))::text[],
                    \(events.map { PassEvent.milliseconds($0.at) })::int8[], \(events.map { $0.deviceHash ?? "" })::text[],
                    \(events.map { $0.changeAt.map(PassEvent.milliseconds) ?? -1 })::int8[]) WITH ORDINALITY AS e(k, t, s, m, a, h, c, o)
                ORDER BY o RETURNING 1
            ), found AS (
                SELECT r.pass_type_id, r.serial_number, d.device_library_id, d.push_token, k.w FROM registrations r
                JOIN devices d ON d.device_library_id = r.device_library_id
                JOIN UNNEST(\(locked.map(\.passTypeIdentifier))::text[], \(locked.map(\.serialNumber))::text[],
                    \(locked.map(written.contains))::bool[]) AS k(t, s, w)
                ON r.pass_type_id = k.t AND r.serial_number = k.s
            ), pushes AS (
                INSERT INTO push_outbox (push_token, pass_type_id, generation, due_at, lease_until, attempts, enqueued_at)
                SELECT k, t, 1, \(time), 0, 0, \(time) FROM (SELECT DISTINCT push_token AS k, pass_type_id AS t FROM found WHERE w) AS d
                ORDER BY k COLLATE "C", t COLLATE "C"
                ON CONFLICT (push_token, pass_type_id)
                DO UPDATE SET generation = push_outbox.generation + 1, due_at = excluded.due_at, attempts = 0
                RETURNING 1
            ), google AS (
                INSERT INTO google_outbox (pass_type_id, serial_number, generation, due_at, lease_until, attempts, enqueued_at)
                SELECT u.t, u.s, 1, \(time), 0, 0, \(time)
                FROM UNNEST(\(google.map(\.passTypeIdentifier))::text[], \(google.map(\.serialNumber))::text[]) WITH ORDINALITY AS u(t, s, o)
                WHERE EXISTS (SELECT 1 FROM google_objects g WHERE g.pass_type_id = u.t AND g.serial_number = u.s)
                    AND (SELECT COUNT(*) FROM pushes) >= 0
                ORDER BY u.o
                ON CONFLICT (pass_type_id, serial_number)
                DO UPDATE SET generation = google_outbox.generation + 1, due_at = excluded.due_at, attempts = 0
            )
            SELECT pass_type_id, serial_number, device_library_id, push_token FROM found ORDER BY device_library_id
            """, logger: logger)
        var found: [PassKey: [DeviceRegistration]] = [:]
        for try await (type, serial, device, token) in rows.decode((String, String, String, String).self) {
            found[PassKey(passTypeIdentifier: type, serialNumber: serial), default: []].append(
                DeviceRegistration(deviceLibraryIdentifier: device, pushToken: token))
        }
        return found
    }
}
