public import Foundation

/// Events on SQLite: written by the changes that cause them, in their transaction (see ``PassEvent``), counted for
/// the statistics, and pruned into daily aggregates.
extension SQLitePassStore {
    static let eventColumns = "kind, pass_type_id, serial_number, template, at, device_hash, change_at"

    /// Writes events in the caller's transaction.
    static func insertEvents(_ db: SQLiteConnection, _ events: [PassEvent]) throws {
        for event in events {
            try db.query(
                "INSERT INTO pass_events (\(eventColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    .text(event.kind.rawValue), .text(event.passTypeIdentifier), .text(event.serialNumber), .text(event.template),
                    .integer(PassEvent.milliseconds(event.at)), event.deviceHash.map { .text($0) } ?? .null,
                    event.changeAt.map { .integer(PassEvent.milliseconds($0)) } ?? .null,
                ])
        }
    }

    /// Writes an event about a stored pass (its template read from its row) in the caller's transaction.
    static func insertPassEvent(
        _ db: SQLiteConnection, _ kind: PassEventKind, _ type: String, _ serial: String, at: Date, deviceHash: String?
    ) throws {
        try db.query(
            """
            INSERT INTO pass_events (kind, pass_type_id, serial_number, template, at, device_hash)
            SELECT ?, pass_type_id, serial_number, template, ?, ? FROM passes WHERE pass_type_id = ? AND serial_number = ?
            """,
            [.text(kind.rawValue), .integer(PassEvent.milliseconds(at)), deviceHash.map { .text($0) } ?? .null, .text(type), .text(serial)])
    }

    /// After a new registration, in its transaction: `installed` when no other device is registered for the pass,
    /// else `registered` (the writer is the only writer, so nothing registers in between).
    static func recordRegistration(
        _ db: SQLiteConnection, _ type: String, _ serial: String, device: String, at: Date, deviceHash: String?
    ) throws {
        try db.query(
            """
            INSERT INTO pass_events (kind, pass_type_id, serial_number, template, at, device_hash)
            SELECT CASE WHEN EXISTS (
                    SELECT 1 FROM registrations WHERE pass_type_id = ?1 AND serial_number = ?2 AND device_library_id <> ?3
                ) THEN 'registered' ELSE 'installed' END, pass_type_id, serial_number, template, ?4, ?5
            FROM passes WHERE pass_type_id = ?1 AND serial_number = ?2
            """, [.text(type), .text(serial), .text(device), .integer(PassEvent.milliseconds(at)), deviceHash.map { .text($0) } ?? .null])
    }

    /// `removed` for a pass no device is registered for any more (`leavingToken`: not counting the devices with that
    /// push token, whose registrations are about to go), in the caller's transaction.
    static func recordRemovalIfLast(
        _ db: SQLiteConnection, _ type: String, _ serial: String, leavingToken: String? = nil, at: Date, deviceHash: String?
    ) throws {
        try db.query(
            """
            INSERT INTO pass_events (kind, pass_type_id, serial_number, template, at, device_hash)
            SELECT 'removed', pass_type_id, serial_number, template, ?4, ?5 FROM passes WHERE pass_type_id = ?1 AND serial_number = ?2
                AND NOT EXISTS (
                    SELECT 1 FROM registrations r JOIN devices d ON d.device_library_id = r.device_library_id
                    WHERE r.pass_type_id = ?1 AND r.serial_number = ?2 AND (?3 IS NULL OR d.push_token <> ?3))
            """,
            [
                .text(type), .text(serial), leavingToken.map { .text($0) } ?? .null, .integer(PassEvent.milliseconds(at)),
                deviceHash.map { .text($0) } ?? .null,
            ])
    }

    /// The device's hash under the store's salt, making the salt on first use (in the writer's transaction).
    func deviceHash(_ db: SQLiteConnection, _ deviceLibraryIdentifier: String) throws -> String? {
        if !deviceHasher.isLoaded {
            try db.query(
                "INSERT OR IGNORE INTO store_settings (name, value) VALUES (?, ?)",
                [.text(DeviceHasher.settingName), .text(DeviceHasher.newSalt())])
            try db.query("SELECT value FROM store_settings WHERE name = ?", [.text(DeviceHasher.settingName)]) {
                deviceHasher.load(hexSalt: $0.text(0) ?? "")
            }
        }
        return deviceHasher.hash(deviceLibraryIdentifier)
    }

    public func record(_ events: [PassEvent]) async throws {
        guard !events.isEmpty else { return }
        try await writer.write { db in try Self.insertEvents(db, events) }
    }

    public func events(from: Date, to: Date, limit: Int) async throws -> [PassEvent] {
        try read { db in
            var events: [PassEvent] = []
            try db.query(
                "SELECT \(Self.eventColumns) FROM pass_events WHERE at >= ? AND at < ? ORDER BY id LIMIT ?",
                [.integer(PassEvent.milliseconds(from)), .integer(PassEvent.milliseconds(to)), .integer(Int64(limit))]
            ) { row in
                guard let kind = PassEventKind(rawValue: row.text(0) ?? "") else { return }
                events.append(
                    PassEvent(
                        kind: kind, passTypeIdentifier: row.text(1) ?? "", serialNumber: row.text(2) ?? "", template: row.text(3) ?? "",
                        at: PassEvent.date(milliseconds: row.integer(4)), deviceHash: row.text(5),
                        changeAt: row.optionalInteger(6).map(PassEvent.date(milliseconds:))))
            }
            return events
        }
    }

    public func pruneEvents(before: Date) async throws -> Int {
        let cut = PassEvent.milliseconds(before) / PassEvent.dayMilliseconds * PassEvent.dayMilliseconds
        return try await writer.write { db in
            try db.query(
                """
                INSERT INTO event_days (day, kind, pass_type_id, template, count, within_hour, within_day)
                SELECT at / \(PassEvent.dayMilliseconds), kind, pass_type_id, template, COUNT(*),
                    SUM(change_at IS NOT NULL AND at - change_at <= 3600000), SUM(change_at IS NOT NULL AND at - change_at <= 86400000)
                FROM pass_events WHERE at < ? GROUP BY 1, 2, 3, 4
                ON CONFLICT (day, kind, pass_type_id, template) DO UPDATE SET count = count + excluded.count,
                    within_hour = within_hour + excluded.within_hour, within_day = within_day + excluded.within_day
                """, [.integer(cut)])
            try db.query("DELETE FROM pass_events WHERE at < ?", [.integer(cut)])
            let deleted = db.changes
            // Settled webhook deliveries go with their events; owed ones stay until they are settled.
            try db.query(
                "DELETE FROM webhook_deliveries WHERE at < ? AND (delivered_at IS NOT NULL OR failed_at IS NOT NULL)", [.integer(cut)])
            // The nonces of Google's callbacks go too: the messages they came in expired long before.
            try db.query("DELETE FROM google_callbacks WHERE at < ?", [.integer(cut)])
            return deleted
        }
    }

    public func eventCounts(_ query: EventCountQuery) async throws -> [EventCount] {
        try read { db in
            let interval = max(query.intervalMilliseconds, 1)
            let filter: [SQLiteConnection.Value] = [
                query.template.map { .text($0) } ?? .null, query.template.map { .text($0) } ?? .null,
                query.passTypeIdentifier.map { .text($0) } ?? .null, query.passTypeIdentifier.map { .text($0) } ?? .null,
            ]
            let (from, to) = (PassEvent.milliseconds(query.from), PassEvent.milliseconds(query.to))
            var counts: [EventCount] = []
            try db.query(
                """
                SELECT bucket, kind, SUM(n), SUM(h), SUM(d) FROM (
                    SELECT at / ?1 * ?1 AS bucket, kind, 1 AS n, change_at IS NOT NULL AND at - change_at <= 3600000 AS h,
                        change_at IS NOT NULL AND at - change_at <= 86400000 AS d
                    FROM pass_events WHERE at >= ?2 AND at < ?3 AND (?4 IS NULL OR template = ?5) AND (?6 IS NULL OR pass_type_id = ?7)
                    UNION ALL
                    SELECT day * \(PassEvent.dayMilliseconds) / ?1 * ?1, kind, count, within_hour, within_day FROM event_days
                    WHERE day * \(PassEvent.dayMilliseconds) >= ?2 AND day * \(PassEvent.dayMilliseconds) < ?3
                        AND (?4 IS NULL OR template = ?5) AND (?6 IS NULL OR pass_type_id = ?7))
                GROUP BY bucket, kind ORDER BY bucket, kind
                """, [.integer(interval), .integer(from), .integer(to)] + filter
            ) { row in
                guard let kind = PassEventKind(rawValue: row.text(1) ?? "") else { return }
                counts.append(
                    EventCount(
                        start: PassEvent.date(milliseconds: row.integer(0)), kind: kind, count: Int(row.integer(2)),
                        withinHour: Int(row.integer(3)), withinDay: Int(row.integer(4))))
            }
            return counts
        }
    }

    public func deviceCounts(template: String?, passTypeIdentifier: String?) async throws -> DeviceCounts {
        try read { db in
            var counts = DeviceCounts(passes: 0, devices: 0)
            try db.query(
                """
                SELECT COUNT(*), COALESCE(SUM(devices), 0) FROM (
                    SELECT COUNT(*) AS devices FROM registrations r
                    JOIN passes p ON p.pass_type_id = r.pass_type_id AND p.serial_number = r.serial_number
                    WHERE (?1 IS NULL OR p.template = ?1) AND (?2 IS NULL OR r.pass_type_id = ?2)
                    GROUP BY r.pass_type_id, r.serial_number)
                """, [template.map { .text($0) } ?? .null, passTypeIdentifier.map { .text($0) } ?? .null]
            ) { counts = DeviceCounts(passes: Int($0.integer(0)), devices: Int($0.integer(1))) }
            return counts
        }
    }
}
