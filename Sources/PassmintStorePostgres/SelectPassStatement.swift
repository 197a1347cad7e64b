import PostgresNIO

/// A pass by its key, as a prepared statement (parsed and planned once per connection): the read a device's every
/// request makes when its cached answer went stale, which a registration makes happen for the next one.
struct SelectPassStatement: PostgresPreparedStatement {
    static let sql = """
        SELECT pass_type_id, serial_number, authentication_token, template, data, voided, update_tag, updated_at, last_push,
            personalization, erased_at, template_version
        FROM passes WHERE pass_type_id = $1 AND serial_number = $2
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .text]
    typealias Row = PostgresSchema.PassRow

    var passType: String
    var serial: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(passType)
        bindings.append(serial)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}
