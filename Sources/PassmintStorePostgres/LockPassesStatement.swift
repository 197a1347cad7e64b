import PassmintStore
import PostgresNIO

/// A change group's first statement, prepared (parsed and planned once per connection): the passes of its keys that
/// exist, locked in key order, each with the tag of the transaction (see ``PostgresPassStore/nextTag(_:_:)``; the
/// same on every row, nil when the counter is missing).
struct LockPassesStatement: PostgresPreparedStatement {
    static let sql = """
        SELECT p.pass_type_id, p.serial_number, p.authentication_token, p.template, p.data, p.voided, p.update_tag, p.updated_at,
            p.last_push, p.personalization, p.erased_at, p.template_version,
            (SELECT pg_current_xact_id()::text::int8 + value FROM counters WHERE name = 'tag_base')
        FROM passes p JOIN UNNEST($1::text[], $2::text[]) AS k(t, s) ON p.pass_type_id = k.t AND p.serial_number = k.s
        ORDER BY p.pass_type_id, p.serial_number FOR UPDATE OF p
        """
    static let bindingDataTypes: [PostgresDataType] = [.textArray, .textArray]
    typealias Row = (pass: StoredPass, tag: Int64?)

    /// Sorted by key.
    var keys: [PassKey]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(keys.map(\.passTypeIdentifier))
        bindings.append(keys.map(\.serialNumber))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let r = try row.decode((String, String, String, String, String, Bool, Int64, Int64, String?, String?, Int64?, String?, Int64?).self)
        return (PostgresSchema.pass((r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7, r.8, r.9, r.10, r.11)), r.12)
    }
}
