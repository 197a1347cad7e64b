import PostgresNIO

/// A registration as one prepared statement (its own transaction, one round trip, parsed and planned once per
/// connection): the device row (its push token updated when it changed) and the registration commit together; the
/// row count says whether the registration is new. A new registration records an event: `installed` when it puts
/// the pass's install mark (`pass_installs`) back, `registered` when the mark was there.
///
/// It holds its pass's registration lock shared (see ``PostgresPassStore/passLockSQL``): registrations of one pass
/// never wait for each other (of two first ones at once, the second waits only for the first's mark, and finds it),
/// and an unregistration, which takes the lock exclusively, never decides "last device" while one is in flight.
struct RegisterDeviceStatement: PostgresPreparedStatement {
    static let sql = """
        WITH locked AS (SELECT pg_advisory_xact_lock_shared(\(PostgresPassStore.passLockSQL(type: "$3", serial: "$4")))),
        device AS (
            INSERT INTO devices (device_library_id, push_token) SELECT $1, $2 FROM locked
            ON CONFLICT (device_library_id) DO UPDATE SET push_token = EXCLUDED.push_token WHERE devices.push_token <> EXCLUDED.push_token),
        registration AS (
            INSERT INTO registrations (device_library_id, pass_type_id, serial_number) SELECT $1, $3, $4 FROM locked
            ON CONFLICT DO NOTHING RETURNING 1),
        marked AS (
            INSERT INTO pass_installs (pass_type_id, serial_number) SELECT $3, $4 FROM registration WHERE $7
            ON CONFLICT DO NOTHING RETURNING 1),
        recorded AS (
            INSERT INTO pass_events (kind, pass_type_id, serial_number, template, at, device_hash)
            SELECT CASE WHEN EXISTS (SELECT 1 FROM marked) THEN 'installed' ELSE 'registered' END, p.pass_type_id, p.serial_number,
                p.template, $5, $6
            FROM registration, passes p WHERE p.pass_type_id = $3 AND p.serial_number = $4 AND $7)
        SELECT count(*) FROM registration
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .text, .text, .text, .int8, .text, .bool]
    typealias Row = Int64

    var device: String
    var pushToken: String
    var passType: String
    var serial: String
    /// When (milliseconds since 1970), and the device's hash, for the event.
    var at: Int64
    var deviceHash: String
    /// False: the registration writes no event and no install mark (``PassStore/register(deviceLibraryIdentifier:pushToken:passTypeIdentifier:serialNumber:recordsEvents:)``).
    var recordsEvents: Bool

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 7)
        bindings.append(device)
        bindings.append(pushToken)
        bindings.append(passType)
        bindings.append(serial)
        bindings.append(at)
        bindings.append(deviceHash)
        bindings.append(recordsEvents)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
}
