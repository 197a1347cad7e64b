public import PassmintStore
import PostgresNIO

/// Walking the passes of one template, a page at a time (a template-wide change). Keys are compared byte-wise
/// (`COLLATE "C"`), whatever the database's collation. Reading the passes of many keys in one round trip.
extension PostgresPassStore {
    public func passes(_ keys: [PassKey]) async throws -> [PassKey: StoredPass] {
        guard !keys.isEmpty else { return [:] }
        let rows = try await clients.query(
            """
            SELECT p.pass_type_id, p.serial_number, p.authentication_token, p.template, p.data, p.voided, p.update_tag, p.updated_at,
                p.last_push, p.personalization, p.erased_at, p.template_version
            FROM passes p JOIN UNNEST(\(keys.map(\.passTypeIdentifier))::text[], \(keys.map(\.serialNumber))::text[]) AS k(t, s)
            ON p.pass_type_id = k.t AND p.serial_number = k.s
            """, logger: logger)
        var found: [PassKey: StoredPass] = [:]
        for try await row in rows.decode(PostgresSchema.PassRow.self) {
            let pass = PostgresSchema.pass(row)
            found[PassKey(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber)] = pass
        }
        return found
    }

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
