public import Foundation
import Logging
public import PassmintStore
import PostgresNIO

/// Events on PostgreSQL: written by the changes that cause them, in their transaction (see `PassEvent`), counted for
/// the statistics, and pruned into daily aggregates by one node at a time.
extension PostgresPassStore {
    /// Writes events in the caller's transaction, in their order.
    static func insertEvents(_ connection: PostgresConnection, _ events: [PassEvent], _ logger: Logger) async throws {
        guard !events.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO pass_events (kind, pass_type_id, serial_number, template, at, device_hash, change_at)
            SELECT k, t, s, m, a, NULLIF(h, ''), NULLIF(c, -1) FROM UNNEST(\(events.map(\.kind.rawValue))::text[],
                \(events.map(\.passTypeIdentifier))::text[], \(events.map(\.serialNumber))::text[], \(events.map(\.template))::text[],
                \(events.map { PassEvent.milliseconds($0.at) })::int8[], \(events.map { $0.deviceHash ?? "" })::text[],
                \(events.map { $0.changeAt.map(PassEvent.milliseconds) ?? -1 })::int8[]) WITH ORDINALITY AS e(k, t, s, m, a, h, c, o)
            ORDER BY o
            """, logger: logger)
    }

    /// The registration lock of a pass, as SQL taking `type` and `serial` (placeholders or columns): the two-key form
    /// of PostgreSQL's transaction-level advisory locks, under a class of its own. Registrations hold it shared,
    /// whatever removes registrations holds it exclusively (see ``lockPasses(_:_:_:)``), so "the last device left" and
    /// "the first device came" are decided one at a time for a pass, across nodes.
    static func passLockSQL(type: String, serial: String) -> String {
        "\(passLockClass), \(passLockHashSQL(type: type, serial: serial))"
    }

    /// The class of the registration locks (the first of the two keys).
    static let passLockClass = 8_154_713

    /// The second key of a pass's registration lock.
    static func passLockHashSQL(type: String, serial: String) -> String { "hashtext(\(type) || '/' || \(serial))" }

    /// Takes the registration locks of `passes` exclusively, in the caller's transaction, in one order (two nodes
    /// removing devices of the same passes never wait crosswise). Before their registrations are removed.
    static func lockPasses(_ connection: PostgresConnection, _ passes: [(type: String, serial: String)], _ logger: Logger) async throws {
        guard !passes.isEmpty else { return }
        let rows = try await connection.query(
            """
            SELECT pg_advisory_xact_lock(\(unescaped: String(passLockClass)), k.h) FROM (
                SELECT DISTINCT \(unescaped: passLockHashSQL(type: "t", serial: "s")) AS h
                FROM UNNEST(\(passes.map(\.type))::text[], \(passes.map(\.serial))::text[]) AS u(t, s)) AS k
            ORDER BY k.h
            """, logger: logger)
        for try await _ in rows {}
    }

    /// After registrations were removed under their passes' locks (``lockPasses(_:_:_:)``): records `also` (when
    /// given) for each, and `removed` for each pass left without a registration, whose install mark goes with it.
    static func recordLeaving(
        _ connection: PostgresConnection, _ lost: [(type: String, serial: String, hash: String)], kind also: PassEventKind?, at: Date,
        _ logger: Logger
    ) async throws {
        guard !lost.isEmpty else { return }
        let sorted = lost.sorted { ($0.type, $0.serial) < ($1.type, $1.serial) }
        let rows = try await connection.query(
            """
            DELETE FROM pass_installs i USING UNNEST(\(sorted.map(\.type))::text[], \(sorted.map(\.serial))::text[]) AS k(t, s)
            WHERE i.pass_type_id = k.t AND i.serial_number = k.s
                AND NOT EXISTS (SELECT 1 FROM registrations r WHERE r.pass_type_id = k.t AND r.serial_number = k.s)
            RETURNING i.pass_type_id, i.serial_number
            """, logger: logger)
        var emptied: Set<[String]> = []
        for try await (type, serial) in rows.decode((String, String).self) { emptied.insert([type, serial]) }
        var events: [(kind: String, type: String, serial: String, hash: String)] = []
        var removedOnce: Set<[String]> = []
        for registration in sorted {
            if let also { events.append((also.rawValue, registration.type, registration.serial, registration.hash)) }
            let key = [registration.type, registration.serial]
            if emptied.contains(key), removedOnce.insert(key).inserted {
                events.append((PassEventKind.removed.rawValue, registration.type, registration.serial, registration.hash))
            }
        }
        try await connection.query(
            """
            INSERT INTO pass_events (kind, pass_type_id, serial_number, template, at, device_hash)
            SELECT e.k, p.pass_type_id, p.serial_number, p.template, \(PassEvent.milliseconds(at)), NULLIF(e.h, '')
            FROM UNNEST(\(events.map(\.kind))::text[], \(events.map(\.type))::text[], \(events.map(\.serial))::text[],
                \(events.map(\.hash))::text[]) WITH ORDINALITY AS e(k, t, s, h, o)
            JOIN passes p ON p.pass_type_id = e.t AND p.serial_number = e.s ORDER BY e.o
            """, logger: logger)
    }

    /// The device's hash under the store's salt; the salt is made by the first node that needs it and read by all.
    func deviceHash(_ deviceLibraryIdentifier: String) async throws -> String {
        if !deviceHasher.isLoaded {
            let setting = DeviceHasher.settingName
            try await clients.query(
                "INSERT INTO store_settings (name, value) VALUES (\(setting), \(DeviceHasher.newSalt())) ON CONFLICT DO NOTHING",
                logger: logger)
            let rows = try await clients.query("SELECT value FROM store_settings WHERE name = \(setting)", logger: logger)
            for try await salt in rows.decode(String.self) { deviceHasher.load(hexSalt: salt) }
        }
        guard let hash = deviceHasher.hash(deviceLibraryIdentifier) else {
            throw PassStoreError(.database, "the store's device salt is missing from store_settings: run the migrations")
        }
        return hash
    }

    public func record(_ events: [PassEvent]) async throws {
        guard !events.isEmpty else { return }
        try await write(notify: false) { connection in try await Self.insertEvents(connection, events, logger) }
    }

    public func events(from: Date, to: Date, limit: Int) async throws -> [PassEvent] {
        let rows = try await clients.query(
            """
            SELECT kind, pass_type_id, serial_number, template, at, device_hash, change_at FROM pass_events
            WHERE at >= \(PassEvent.milliseconds(from)) AND at < \(PassEvent.milliseconds(to)) ORDER BY id LIMIT \(limit)
            """, logger: logger)
        var events: [PassEvent] = []
        for try await (kind, type, serial, template, at, hash, change) in rows.decode(
            (String, String, String, String, Int64, String?, Int64?).self)
        {
            guard let kind = PassEventKind(rawValue: kind) else { continue }
            events.append(
                PassEvent(
                    kind: kind, passTypeIdentifier: type, serialNumber: serial, template: template, at: PassEvent.date(milliseconds: at),
                    deviceHash: hash, changeAt: change.map(PassEvent.date(milliseconds:))))
        }
        return events
    }

    public func pruneEvents(before: Date) async throws -> Int {
        let cut = PassEvent.milliseconds(before) / PassEvent.dayMilliseconds * PassEvent.dayMilliseconds
        return try await write(notify: false) { connection in
            // One node at a time: two prunes adding the same events to the aggregates would count them twice.
            try await connection.query("SELECT pg_advisory_xact_lock(8154712)", logger: logger)
            try await connection.query(
                """
                INSERT INTO event_days (day, kind, pass_type_id, template, count, within_hour, within_day)
                SELECT at / \(PassEvent.dayMilliseconds), kind, pass_type_id, template, COUNT(*),
                    COUNT(*) FILTER (WHERE change_at IS NOT NULL AND at - change_at <= 3600000),
                    COUNT(*) FILTER (WHERE change_at IS NOT NULL AND at - change_at <= 86400000)
                FROM pass_events WHERE at < \(cut) GROUP BY 1, 2, 3, 4
                ON CONFLICT (day, kind, pass_type_id, template) DO UPDATE SET count = event_days.count + excluded.count,
                    within_hour = event_days.within_hour + excluded.within_hour, within_day = event_days.within_day + excluded.within_day
                """, logger: logger)
            let deleted = try await connection.rowCount("DELETE FROM pass_events WHERE at < \(cut) RETURNING 1", logger: logger)
            // Settled webhook deliveries go with their events; owed ones stay until they are settled.
            try await connection.query(
                "DELETE FROM webhook_deliveries WHERE at < \(cut) AND (delivered_at IS NOT NULL OR failed_at IS NOT NULL)", logger: logger)
            // The nonces of Google's callbacks go too: the messages they came in expired long before.
            try await connection.query("DELETE FROM google_callbacks WHERE at < \(cut)", logger: logger)
            return deleted
        }
    }

    public func eventCounts(_ query: EventCountQuery) async throws -> [EventCount] {
        let interval = max(query.intervalMilliseconds, 1)
        let (from, to, template, type) = (
            PassEvent.milliseconds(query.from), PassEvent.milliseconds(query.to), query.template, query.passTypeIdentifier
        )
        let day = PassEvent.dayMilliseconds
        let rows = try await clients.query(
            """
            SELECT bucket, kind, SUM(n)::int8, SUM(h)::int8, SUM(d)::int8 FROM (
                SELECT at / \(interval) * \(interval) AS bucket, kind, 1::int8 AS n,
                    (change_at IS NOT NULL AND at - change_at <= 3600000)::int::int8 AS h,
                    (change_at IS NOT NULL AND at - change_at <= 86400000)::int::int8 AS d
                FROM pass_events WHERE at >= \(from) AND at < \(to) AND (\(template)::text IS NULL OR template = \(template))
                    AND (\(type)::text IS NULL OR pass_type_id = \(type))
                UNION ALL
                SELECT day * \(day) / \(interval) * \(interval), kind, count, within_hour, within_day FROM event_days
                WHERE day * \(day) >= \(from) AND day * \(day) < \(to) AND (\(template)::text IS NULL OR template = \(template))
                    AND (\(type)::text IS NULL OR pass_type_id = \(type))) AS counted
            GROUP BY bucket, kind ORDER BY bucket, kind
            """, logger: logger)
        var counts: [EventCount] = []
        for try await (bucket, kind, count, hour, within) in rows.decode((Int64, String, Int64, Int64, Int64).self) {
            guard let kind = PassEventKind(rawValue: kind) else { continue }
            counts.append(
                EventCount(
                    start: PassEvent.date(milliseconds: bucket), kind: kind, count: Int(count), withinHour: Int(hour),
                    withinDay: Int(within)))
        }
        return counts
    }

    public func deviceCounts(template: String?, passTypeIdentifier: String?) async throws -> DeviceCounts {
        let rows = try await clients.query(
            """
            SELECT COUNT(DISTINCT (r.pass_type_id, r.serial_number))::int8, COUNT(*)::int8 FROM registrations r
            JOIN passes p ON p.pass_type_id = r.pass_type_id AND p.serial_number = r.serial_number
            WHERE (\(template)::text IS NULL OR p.template = \(template))
                AND (\(passTypeIdentifier)::text IS NULL OR r.pass_type_id = \(passTypeIdentifier))
            """, logger: logger)
        for try await (passes, devices) in rows.decode((Int64, Int64).self) {
            return DeviceCounts(passes: Int(passes), devices: Int(devices))
        }
        return DeviceCounts(passes: 0, devices: 0)
    }
}
