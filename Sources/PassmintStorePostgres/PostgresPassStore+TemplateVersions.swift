public import PassmintStore
import PostgresNIO

/// Template versions by content hash on PostgreSQL (`template_versions`, migration 17): every node reads a version a
/// pass names from here.
extension PostgresPassStore: TemplateVersionStore {
    public func storeTemplateVersion(hash: String, name: String, content: String) async throws {
        let now = PassEvent.milliseconds(clock())
        _ = try await write(notify: false) { connection in
            try await connection.query(
                """
                INSERT INTO template_versions (hash, name, content, stored_at) VALUES (\(hash), \(name), \(content), \(now))
                ON CONFLICT (hash) DO NOTHING
                """, logger: logger)
        }
    }

    public func templateVersion(hash: String) async throws -> String? {
        let rows = try await clients.query("SELECT content FROM template_versions WHERE hash = \(hash)", logger: logger)
        for try await content in rows.decode(String.self) { return content }
        return nil
    }

    public func templateVersions(name: String) async throws -> [String] {
        let rows = try await clients.query(
            "SELECT hash FROM template_versions WHERE name = \(name) ORDER BY stored_at, hash", logger: logger)
        var hashes: [String] = []
        for try await hash in rows.decode(String.self) { hashes.append(hash) }
        return hashes
    }

    public func adoptTemplateVersion(hash: String, name: String) async throws -> Int {
        try await write { connection in
            return try await connection.rowCount(
                "UPDATE passes SET template_version = \(hash) WHERE template = \(name) AND template_version IS NULL RETURNING 1",
                logger: logger)
        }
    }
}
