import Foundation
import Logging
import PassmintStore
import PassmintStorePostgres
import PassmintTestSupport
import PostgresNIO

/// The two real store backends, for tests that run against both.
enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres
    var description: String { rawValue }
}

/// Runs `body` with a migrated store of `kind`: a new SQLite file, or the test PostgreSQL database (its client run
/// for the duration).
func withStore<T: Sendable>(_ kind: StoreKind, _ body: @Sendable (any PassStore) async throws -> T) async throws -> T {
    let logger = Logger(label: "test.store")
    switch kind {
    case .sqlite:
        let store = try SQLitePassStore(path: TestEnvironment.temporaryFolder("sqlite").appendingPathComponent("passmint.sqlite").path)
        try await store.migrate()
        return try await body(store)
    case .postgres:
        let client = try PostgresPassStore.client(url: TestEnvironment.postgresURL(), logger: logger)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                await client.run()
                return nil
            }
            let store = PostgresPassStore(client: client, logger: logger)
            try await store.migrate()
            let result = try await body(store)
            group.cancelAll()
            return result
        }
    }
}

/// Names no other test uses (the PostgreSQL database is shared by the whole run).
func unique(_ prefix: String) -> String { "\(prefix)-\(UUID().uuidString.prefix(13).lowercased())" }

/// A hex push token as APNs makes them (64 hex digits).
func pushToken() -> String { (0..<4).map { _ in String(format: "%016llx", UInt64.random(in: 0...UInt64.max)) }.joined() }
