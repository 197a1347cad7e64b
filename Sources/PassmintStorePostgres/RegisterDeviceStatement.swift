import PostgresNIO

/// A registration as one prepared statement (its own transaction, one round trip, parsed and planned once per
/// connection): the device row (its push token updated when it changed) and the registration commit together; the
/// row count says whether the registration is new.
struct RegisterDeviceStatement: PostgresPreparedStatement {
    static let sql = """
        WITH device AS (
            INSERT INTO devices (device_library_id, push_token) VALUES ($1, $2)
            ON CONFLICT (device_library_id) DO UPDATE SET push_token = EXCLUDED.push_token WHERE devices.push_token <> EXCLUDED.push_token),
        registration AS (
            INSERT INTO registrations (device_library_id, pass_type_id, serial_number) VALUES ($1, $3, $4)
            ON CONFLICT DO NOTHING RETURNING 1)
        SELECT count(*) FROM registration
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .text, .text, .text]
    typealias Row = Int64

    var device: String
    var pushToken: String
    var passType: String
    var serial: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(device)
        bindings.append(pushToken)
        bindings.append(passType)
        bindings.append(serial)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
}
