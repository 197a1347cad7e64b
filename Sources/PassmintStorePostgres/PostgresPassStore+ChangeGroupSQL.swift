import Foundation
import Logging
import PassmintStore
import PostgresNIO

/// The statements of the group commit (`changeTogether`), each for the whole group. Rows are locked in one order
/// (the passes by key, then their push rows, then their Google rows) so that two groups never wait crosswise.
extension PostgresPassStore {
    /// The passes of `keys` that exist, locked in key order.
    static func lockPasses(_ connection: PostgresConnection, _ keys: Set<PassKey>, _ logger: Logger) async throws -> [PassKey: StoredPass] {
        let sorted = keys.sorted()
        let rows = try await connection.query(
            """
            SELECT p.pass_type_id, p.serial_number, p.authentication_token, p.template, p.data, p.voided, p.update_tag, p.updated_at,
                p.last_push, p.personalization, p.erased_at, p.template_version
            FROM passes p JOIN UNNEST(\(sorted.map(\.passTypeIdentifier))::text[], \(sorted.map(\.serialNumber))::text[]) AS k(t, s)
            ON p.pass_type_id = k.t AND p.serial_number = k.s ORDER BY p.pass_type_id, p.serial_number FOR UPDATE OF p
            """, logger: logger)
        var found: [PassKey: StoredPass] = [:]
        for try await row in rows.decode(PostgresSchema.PassRow.self) {
            let pass = PostgresSchema.pass(row)
            found[PassKey(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber)] = pass
        }
        return found
    }

    /// Writes new versions of locked passes (one each).
    static func writeVersions(_ connection: PostgresConnection, _ versions: [StoredPass], _ logger: Logger) async throws {
        guard !versions.isEmpty else { return }
        try await connection.query(
            """
            UPDATE passes p SET data = u.d, voided = u.v, personalization = CASE WHEN u.hp THEN u.pz END, update_tag = u.g, updated_at = u.a,
                erased_at = CASE WHEN u.he THEN u.e END, template_version = NULLIF(u.tv, '')
            FROM UNNEST(\(versions.map(\.passTypeIdentifier))::text[], \(versions.map(\.serialNumber))::text[],
                \(versions.map(\.dataJSON))::text[], \(versions.map(\.voided))::bool[], \(versions.map { $0.personalizationJSON != nil })::bool[],
                \(versions.map { $0.personalizationJSON ?? "" })::text[], \(versions.map(\.updateTag))::int8[],
                \(versions.map { Int64($0.updatedAt.timeIntervalSince1970) })::int8[], \(versions.map { $0.erasedAt != nil })::bool[],
                \(versions.map { $0.erasedAt.map(PassEvent.milliseconds) ?? 0 })::int8[],
                \(versions.map { $0.templateVersion ?? "" })::text[]) AS u(t, s, d, v, hp, pz, g, a, he, e, tv)
            WHERE p.pass_type_id = u.t AND p.serial_number = u.s
            """, logger: logger)
    }

    /// The devices registered for each pass of `keys`, each pass's in device order.
    static func registrations(
        _ connection: PostgresConnection, _ keys: [PassKey], _ logger: Logger
    ) async throws -> [PassKey: [DeviceRegistration]] {
        guard !keys.isEmpty else { return [:] }
        let rows = try await connection.query(
            """
            SELECT r.pass_type_id, r.serial_number, d.device_library_id, d.push_token FROM registrations r
            JOIN devices d ON d.device_library_id = r.device_library_id
            JOIN UNNEST(\(keys.map(\.passTypeIdentifier))::text[], \(keys.map(\.serialNumber))::text[]) AS k(t, s)
            ON r.pass_type_id = k.t AND r.serial_number = k.s ORDER BY d.device_library_id
            """, logger: logger)
        var found: [PassKey: [DeviceRegistration]] = [:]
        for try await (type, serial, device, token) in rows.decode((String, String, String, String).self) {
            found[PassKey(passTypeIdentifier: type, serialNumber: serial), default: []].append(
                DeviceRegistration(deviceLibraryIdentifier: device, pushToken: token))
        }
        return found
    }

    /// Owes a push to each (push token, pass type), coalesced per pair as ``owePushes(_:tokens:passTypeIdentifier:_:now:)``
    /// does, in (token, pass type) order.
    static func owePushes(_ connection: PostgresConnection, _ owed: [(token: String, type: String)], _ logger: Logger, now: Date)
        async throws
    {
        let unique = Set(owed.map { [$0.token, $0.type] }).sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }
        guard !unique.isEmpty else { return }
        let time = milliseconds(now)
        try await connection.query(
            """
            INSERT INTO push_outbox (push_token, pass_type_id, generation, due_at, lease_until, attempts, enqueued_at)
            SELECT u.k, u.t, 1, \(time), 0, 0, \(time) FROM UNNEST(\(unique.map { $0[0] })::text[], \(unique.map { $0[1] })::text[])
                WITH ORDINALITY AS u(k, t, o) ORDER BY u.o
            ON CONFLICT (push_token, pass_type_id)
            DO UPDATE SET generation = push_outbox.generation + 1, due_at = excluded.due_at, attempts = 0
            """, logger: logger)
    }

    /// Owes a Google patch to each pass of `keys` whose object Google holds, in key order.
    static func oweGoogleUpdates(_ connection: PostgresConnection, _ keys: [PassKey], _ logger: Logger, now: Date) async throws {
        guard !keys.isEmpty else { return }
        let sorted = keys.sorted()
        let time = milliseconds(now)
        try await connection.query(
            """
            INSERT INTO google_outbox (pass_type_id, serial_number, generation, due_at, lease_until, attempts, enqueued_at)
            SELECT u.t, u.s, 1, \(time), 0, 0, \(time)
            FROM UNNEST(\(sorted.map(\.passTypeIdentifier))::text[], \(sorted.map(\.serialNumber))::text[]) WITH ORDINALITY AS u(t, s, o)
            WHERE EXISTS (SELECT 1 FROM google_objects g WHERE g.pass_type_id = u.t AND g.serial_number = u.s) ORDER BY u.o
            ON CONFLICT (pass_type_id, serial_number)
            DO UPDATE SET generation = google_outbox.generation + 1, due_at = excluded.due_at, attempts = 0
            """, logger: logger)
    }
}
