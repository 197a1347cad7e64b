import Foundation

/// Template versions by content hash on SQLite (`template_versions`, migration 16).
extension SQLitePassStore: TemplateVersionStore {
    public func storeTemplateVersion(hash: String, name: String, content: String) async throws {
        let now = PassEvent.milliseconds(clock())
        try await writer.write { db in
            try db.query(
                "INSERT INTO template_versions (hash, name, content, stored_at) VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING",
                [.text(hash), .text(name), .text(content), .integer(now)])
        }
    }

    public func templateVersion(hash: String) async throws -> String? {
        try read { db in
            var content: String?
            try db.query("SELECT content FROM template_versions WHERE hash = ?", [.text(hash)]) { content = $0.text(0) }
            return content
        }
    }

    public func templateVersions(name: String) async throws -> [String] {
        try read { db in
            var hashes: [String] = []
            try db.query("SELECT hash FROM template_versions WHERE name = ? ORDER BY stored_at, hash", [.text(name)]) {
                hashes.append($0.text(0) ?? "")
            }
            return hashes
        }
    }

    public func adoptTemplateVersion(hash: String, name: String) async throws -> Int {
        try await writer.write { db in
            try db.query(
                "UPDATE passes SET template_version = ? WHERE template = ? AND template_version IS NULL", [.text(hash), .text(name)])
            return db.changes
        }
    }
}
