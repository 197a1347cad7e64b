import PostgresNIO

/// A registration as one prepared statement (its own transaction, one round trip, parsed and planned once per
/// connection): the device row (its push token updated when it changed) and the registration commit together; the
/// row count says whether the registration is new. A new registration counts a device more for its pass
/// (`pass_devices`, whose row lock orders two registrations of one pass on two nodes) and records an event: the first
/// `installed` (of two devices registering at once, exactly one), any later one `registered`.
struct RegisterDeviceStatement: PostgresPreparedStatement {
    static let sql = """
        WITH device AS (
            INSERT INTO devices (device_library_id, push_token) VALUES ($1, $2)
            ON CONFLICT (device_library_id) DO UPDATE SET push_token = EXCLUDED.push_token WHERE devices.push_token <> EXCLUDED.push_token),
        registration AS (
            INSERT INTO registrations (device_library_id, pass_type_id, serial_number) VALUES ($1, $3, $4)
            ON CONFLICT DO NOTHING RETURNING 1),
        counted AS (
            INSERT INTO pass_devices (pass_type_id, serial_number, devices) SELECT $3, $4, 1 FROM registration
            ON CONFLICT (pass_type_id, serial_number) DO UPDATE SET devices = pass_devices.devices + 1 RETURNING devices),
        recorded AS (
            INSERT INTO pass_events (kind, pass_type_id, serial_number, template, at, device_hash)
            SELECT CASE WHEN c.devices = 1 THEN 'installed' ELSE 'registered' END, p.pass_type_id, p.serial_number, p.template, $5, $6
            FROM counted c, passes p WHERE p.pass_type_id = $3 AND p.serial_number = $4)
        SELECT count(*) FROM registration
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .text, .text, .text, .int8, .text]
    typealias Row = Int64

    var device: String
    var pushToken: String
    var passType: String
    var serial: String
    /// When (milliseconds since 1970), and the device's hash, for the event.
    var at: Int64
    var deviceHash: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 6)
        bindings.append(device)
        bindings.append(pushToken)
        bindings.append(passType)
        bindings.append(serial)
        bindings.append(at)
        bindings.append(deviceHash)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
}
