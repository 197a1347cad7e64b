import Foundation
import Logging
import PassmintServer
import PassmintStore
import PassmintTestSupport

/// The two real store backends, for tests that run against both.
enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres
    var description: String { rawValue }
    /// SQLite, and PostgreSQL when its tests run (``TestEnvironment/runsPostgreSQLTests``).
    static var allCases: [StoreKind] { TestEnvironment.runsPostgreSQLTests ? [.sqlite, .postgres] : [.sqlite] }

    /// A database URL of this kind: a new SQLite file, or a new database on the test PostgreSQL server (each test its
    /// own: a service drains the push queue of its whole database).
    func databaseURL() throws -> String {
        switch self {
        case .sqlite: TestEnvironment.temporaryFolder("sqlite").appendingPathComponent("passmint.sqlite").path
        case .postgres: try TestEnvironment.freshPostgresURL()
        }
    }
}

/// Runs `body` with a migrated store of `kind`, opened as the service opens it (``openPassStore(url:logger:)``): a
/// new SQLite file, or a new PostgreSQL database (its client running for the duration). With `clock`, the store's time
/// is the test's.
func withStore<T: Sendable>(
    _ kind: StoreKind, clock: ManualClock? = nil, _ body: @Sendable (any PassStore) async throws -> T
) async throws -> T {
    var now: @Sendable () -> Date = { Date() }
    if let clock { now = clock.today }
    // Creating a PostgreSQL database runs psql and waits for it: on a thread of its own, off the cooperative pool.
    let url = try await offPool { Result { try kind.databaseURL() } }.get()
    let opened = try openPassStore(url: url, logger: Logger(label: "test.store"), clock: now)
    return try await opened.whileRunning { try await body($0) }
}

/// Names no other test uses (the PostgreSQL database is shared by the whole run).
func unique(_ prefix: String) -> String { "\(prefix)-\(UUID().uuidString.prefix(13).lowercased())" }

/// A hex push token as APNs makes them (64 hex digits).
func pushToken() -> String { (0..<4).map { _ in String(format: "%016llx", UInt64.random(in: 0...UInt64.max)) }.joined() }

/// Stores a new pass of `type` (Loyalty by default, `{"points":1}`) straight in `store`, named with `prefix`; its serial.
func storedPass(in store: any PassStore, type: String, prefix: String, template: String = "Loyalty") async throws -> String {
    let serial = unique(prefix)
    _ = try await store.insert(
        StoredPass(
            passTypeIdentifier: type, serialNumber: serial, authenticationToken: "token-0123456789abcdef", template: template,
            dataJSON: #"{"points":1}"#))
    return serial
}
