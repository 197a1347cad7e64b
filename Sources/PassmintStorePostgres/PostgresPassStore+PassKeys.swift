public import PassmintStore
import PostgresNIO

/// Walking the passes of one template, a page at a time (a template-wide change). Keys are compared byte-wise
/// (`COLLATE "C"`), whatever the database's collation.
extension PostgresPassStore {
    public func passKeys(template: String, after: PassKey?, limit: Int) async throws -> [PassKey] {
        let start = after ?? PassKey(passTypeIdentifier: "", serialNumber: "")
        return try await client.withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT pass_type_id, serial_number FROM passes WHERE template = \(template)
                AND (pass_type_id COLLATE "C", serial_number COLLATE "C") > (\(start.passTypeIdentifier), \(start.serialNumber))
                ORDER BY pass_type_id COLLATE "C", serial_number COLLATE "C" LIMIT \(limit)
                """, logger: logger)
            var keys: [PassKey] = []
            for try await (type, serial) in rows.decode((String, String).self) {
                keys.append(PassKey(passTypeIdentifier: type, serialNumber: serial))
            }
            return keys
        }
    }
}
