/// Walking the passes of one template, a page at a time (a template-wide change).
extension SQLitePassStore {
    public func passKeys(template: String, after: PassKey?, limit: Int) async throws -> [PassKey] {
        try read { db in
            var keys: [PassKey] = []
            let start = after ?? PassKey(passTypeIdentifier: "", serialNumber: "")
            try db.query(
                """
                SELECT pass_type_id, serial_number FROM passes WHERE template = ? AND (pass_type_id, serial_number) > (?, ?)
                ORDER BY pass_type_id, serial_number LIMIT ?
                """, [.text(template), .text(start.passTypeIdentifier), .text(start.serialNumber), .integer(Int64(limit))]
            ) { row in
                keys.append(PassKey(passTypeIdentifier: row.text(0) ?? "", serialNumber: row.text(1) ?? ""))
            }
            return keys
        }
    }
}
