import Foundation
import Logging
import PassmintStore
import PostgresNIO

/// The PostgreSQL store's tables: named, forward-only migrations, applied by one node at a time.
enum PostgresSchema {
    static let migrations: [(version: Int, name: String, statements: [String])] = [
        (
            1, "create passes, devices, registrations",
            [
                """
                CREATE TABLE IF NOT EXISTS passes (
                    pass_type_id TEXT NOT NULL, serial_number TEXT NOT NULL, authentication_token TEXT NOT NULL,
                    template TEXT NOT NULL, data TEXT NOT NULL, voided BOOLEAN NOT NULL DEFAULT FALSE,
                    update_tag BIGINT NOT NULL, updated_at BIGINT NOT NULL, last_push TEXT,
                    PRIMARY KEY (pass_type_id, serial_number))
                """,
                "CREATE INDEX IF NOT EXISTS passes_by_tag ON passes (pass_type_id, update_tag)",
                "CREATE TABLE IF NOT EXISTS devices (device_library_id TEXT PRIMARY KEY, push_token TEXT NOT NULL)",
                "CREATE INDEX IF NOT EXISTS devices_by_token ON devices (push_token)",
                """
                CREATE TABLE IF NOT EXISTS registrations (
                    device_library_id TEXT NOT NULL, pass_type_id TEXT NOT NULL, serial_number TEXT NOT NULL,
                    PRIMARY KEY (device_library_id, pass_type_id, serial_number))
                """,
                "CREATE INDEX IF NOT EXISTS registrations_by_pass ON registrations (pass_type_id, serial_number)",
                "CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value BIGINT NOT NULL)",
                "INSERT INTO counters (name, value) VALUES ('update_tag', 0) ON CONFLICT DO NOTHING",
            ]
        ),
        (2, "personalization of rewards passes", ["ALTER TABLE passes ADD COLUMN IF NOT EXISTS personalization TEXT"]),
        (3, "per-pass images", ["CREATE TABLE IF NOT EXISTS images (sha256 TEXT PRIMARY KEY, bytes BYTEA NOT NULL)"]),
        (
            4, "durable push queue; passes by template",
            [
                """
                CREATE TABLE IF NOT EXISTS push_outbox (
                    push_token TEXT NOT NULL, pass_type_id TEXT NOT NULL, generation BIGINT NOT NULL, due_at BIGINT NOT NULL,
                    lease_until BIGINT NOT NULL DEFAULT 0, attempts INT NOT NULL DEFAULT 0, enqueued_at BIGINT NOT NULL,
                    PRIMARY KEY (push_token, pass_type_id))
                """,
                "CREATE INDEX IF NOT EXISTS push_outbox_by_due ON push_outbox (due_at)",
                """
                CREATE TABLE IF NOT EXISTS push_results (
                    push_token TEXT NOT NULL, pass_type_id TEXT NOT NULL, result TEXT NOT NULL, at BIGINT NOT NULL,
                    PRIMARY KEY (push_token, pass_type_id))
                """,
                "CREATE INDEX IF NOT EXISTS passes_by_template ON passes (template, pass_type_id, serial_number)",
            ]
        ),
    ]

    /// Applies the migrations not applied yet, holding an advisory lock so that one node migrates at a time.
    static func migrate(_ client: PostgresClient, logger: Logger) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(8154711)", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
                logger: logger)
            var applied: Set<Int> = []
            for try await version in try await connection.query("SELECT version FROM schema_migrations", logger: logger).decode(Int.self) {
                applied.insert(version)
            }
            for migration in migrations where !applied.contains(migration.version) {
                for statement in migration.statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                let (version, name, now) = (migration.version, migration.name, Int64(Date().timeIntervalSince1970))
                try await connection.query(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(version), \(name), \(now))", logger: logger)
            }
        }
    }

    typealias PassRow = (String, String, String, String, String, Bool, Int64, Int64, String?, String?)

    static func pass(_ row: PassRow) -> StoredPass {
        StoredPass(
            passTypeIdentifier: row.0, serialNumber: row.1, authenticationToken: row.2, template: row.3, dataJSON: row.4, voided: row.5,
            updateTag: row.6, updatedAt: Date(timeIntervalSince1970: TimeInterval(row.7)), lastPushJSON: row.8, personalizationJSON: row.9)
    }
}
