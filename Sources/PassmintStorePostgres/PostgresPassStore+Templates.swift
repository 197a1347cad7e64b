public import PassmintStore
import PostgresNIO

/// Template versions published on any node (``PublishedTemplateStore``): each is a row, and its commit notifies the
/// change feed's channel with the payload `template`, on which every node's feed calls its handler.
extension PostgresPassStore: PublishedTemplateStore {
    public func recordPublishedTemplate(name: String, node: String, version: String) async throws -> Int64 {
        let now = PassEvent.milliseconds(clock())
        return try await clients.withTransaction(logger: logger) { connection in
            let rows = try await connection.query(
                """
                INSERT INTO published_templates (name, node, version, published_at) VALUES (\(name), \(node), \(version), \(now))
                RETURNING seq
                """, logger: logger)
            var sequence: Int64 = 0
            for try await value in rows.decode(Int64.self) { sequence = value }
            let notify = "NOTIFY \(PostgresChangeFeed.channel), '\(PostgresChangeFeed.templatePayload)'"
            try await connection.query(PostgresQuery(unsafeSQL: notify), logger: logger)
            return sequence
        }
    }

    public func publishedTemplates(after: Int64, latestOnly: Bool) async throws -> [PublishedTemplate] {
        let query: PostgresQuery =
            latestOnly
            ? """
            SELECT seq, name, node, version FROM (
                SELECT DISTINCT ON (name) seq, name, node, version FROM published_templates WHERE seq > \(after) ORDER BY name, seq DESC
            ) latest ORDER BY seq
            """
            : "SELECT seq, name, node, version FROM published_templates WHERE seq > \(after) ORDER BY seq"
        let rows = try await clients.query(query, logger: logger)
        var published: [PublishedTemplate] = []
        for try await (sequence, name, node, version) in rows.decode((Int64, String, String, String).self) {
            published.append(PublishedTemplate(sequence: sequence, name: name, node: node, version: version))
        }
        return published
    }

    public func onTemplatePublished(_ handler: @escaping @Sendable () -> Void) {
        changeFeed.onTemplatePublished(handler)
    }
}
