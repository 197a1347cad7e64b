import Foundation
import PassmintStore
import PostgresNIO

/// A change group's second statement, prepared (parsed and planned once per connection): the new versions of locked
/// passes (one each) with all they owe — their events (and the webhook deliveries the events' trigger owes), a push to
/// each (push token, pass type) of their devices, coalesced per pair, a patch to each Google object they have — and,
/// as its rows, the devices registered for each locked pass (written or not), in device order, read in the same
/// statement.
///
/// The push rows are upserted in (token, pass type) byte order (as the push queue's settlement locks them, whatever
/// the database's collation) and before the Google rows (the Google insert waits for them through its `count`), the
/// Google rows in key order; the passes' rows were locked by ``LockPassesStatement``.
struct WriteChangeGroupStatement: PostgresPreparedStatement {
    static let sql = """
        WITH versions AS (
            UPDATE passes p SET data = u.d, voided = u.v, personalization = CASE WHEN u.hp THEN u.pz END, update_tag = u.g,
                updated_at = u.a, erased_at = CASE WHEN u.he THEN u.e END, template_version = NULLIF(u.tv, '')
            FROM UNNEST($1::text[], $2::text[], $3::text[], $4::bool[], $5::bool[], $6::text[], $7::int8[], $8::int8[], $9::bool[],
                $10::int8[], $11::text[]) AS u(t, s, d, v, hp, pz, g, a, he, e, tv)
            WHERE p.pass_type_id = u.t AND p.serial_number = u.s RETURNING 1
        ), events AS (
            INSERT INTO pass_events (kind, pass_type_id, serial_number, template, at, device_hash, change_at)
            SELECT k, t, s, m, a, NULLIF(h, ''), NULLIF(c, -1)
            FROM UNNEST($12::text[], $13::text[], $14::text[], $15::text[], $16::int8[], $17::text[], $18::int8[])
                WITH ORDINALITY AS e(k, t, s, m, a, h, c, o)
            ORDER BY o RETURNING 1
        ), found AS (
            SELECT r.pass_type_id, r.serial_number, d.device_library_id, d.push_token, k.w FROM registrations r
            JOIN devices d ON d.device_library_id = r.device_library_id
            JOIN UNNEST($19::text[], $20::text[], $21::bool[]) AS k(t, s, w) ON r.pass_type_id = k.t AND r.serial_number = k.s
        ), pushes AS (
            INSERT INTO push_outbox (push_token, pass_type_id, generation, due_at, lease_until, attempts, enqueued_at)
            SELECT k, t, 1, $22::int8, 0, 0, $22::int8 FROM (SELECT DISTINCT push_token AS k, pass_type_id AS t FROM found WHERE w) AS d
            ORDER BY k COLLATE "C", t COLLATE "C"
            ON CONFLICT (push_token, pass_type_id)
            DO UPDATE SET generation = push_outbox.generation + 1, due_at = excluded.due_at, attempts = 0
            RETURNING 1
        ), google AS (
            INSERT INTO google_outbox (pass_type_id, serial_number, generation, due_at, lease_until, attempts, enqueued_at)
            SELECT u.t, u.s, 1, $22::int8, 0, 0, $22::int8 FROM UNNEST($23::text[], $24::text[]) WITH ORDINALITY AS u(t, s, o)
            WHERE EXISTS (SELECT 1 FROM google_objects g WHERE g.pass_type_id = u.t AND g.serial_number = u.s)
                AND (SELECT COUNT(*) FROM pushes) >= 0
            ORDER BY u.o
            ON CONFLICT (pass_type_id, serial_number)
            DO UPDATE SET generation = google_outbox.generation + 1, due_at = excluded.due_at, attempts = 0
        )
        SELECT pass_type_id, serial_number, device_library_id, push_token FROM found ORDER BY device_library_id
        """
    static let bindingDataTypes: [PostgresDataType] =
        [.textArray, .textArray, .textArray, .boolArray, .boolArray, .textArray, .int8Array, .int8Array, .boolArray, .int8Array]
        + [.textArray, .textArray, .textArray, .textArray, .textArray, .int8Array, .textArray, .int8Array]
        + [.textArray, .textArray, .boolArray, .int8, .textArray, .textArray]
    typealias Row = (key: PassKey, registration: DeviceRegistration)

    /// New versions, one a pass.
    var versions: [StoredPass]
    var events: [PassEvent]
    /// Every pass the group locked.
    var locked: [PassKey]
    /// When the pushes and patches are owed.
    var now: Date

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 24)
        bindings.append(versions.map(\.passTypeIdentifier))
        bindings.append(versions.map(\.serialNumber))
        bindings.append(versions.map(\.dataJSON))
        bindings.append(versions.map(\.voided))
        bindings.append(versions.map { $0.personalizationJSON != nil })
        bindings.append(versions.map { $0.personalizationJSON ?? "" })
        bindings.append(versions.map(\.updateTag))
        bindings.append(versions.map { Int64($0.updatedAt.timeIntervalSince1970) })
        bindings.append(versions.map { $0.erasedAt != nil })
        bindings.append(versions.map { $0.erasedAt.map(PassEvent.milliseconds) ?? 0 })
        bindings.append(versions.map { $0.templateVersion ?? "" })
        bindings.append(events.map(\.kind.rawValue))
        bindings.append(events.map(\.passTypeIdentifier))
        bindings.append(events.map(\.serialNumber))
        bindings.append(events.map(\.template))
        bindings.append(events.map { PassEvent.milliseconds($0.at) })
        bindings.append(events.map { $0.deviceHash ?? "" })
        bindings.append(events.map { $0.changeAt.map(PassEvent.milliseconds) ?? -1 })
        let written = Set(versions.map { PassKey(passTypeIdentifier: $0.passTypeIdentifier, serialNumber: $0.serialNumber) })
        bindings.append(locked.map(\.passTypeIdentifier))
        bindings.append(locked.map(\.serialNumber))
        bindings.append(locked.map(written.contains))
        bindings.append(PassEvent.milliseconds(now))
        let google = written.sorted()
        bindings.append(google.map(\.passTypeIdentifier))
        bindings.append(google.map(\.serialNumber))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (type, serial, device, token) = try row.decode((String, String, String, String).self)
        let key = PassKey(passTypeIdentifier: type, serialNumber: serial)
        return (key, DeviceRegistration(deviceLibraryIdentifier: device, pushToken: token))
    }
}
