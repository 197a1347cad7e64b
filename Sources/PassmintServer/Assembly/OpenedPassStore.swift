public import Foundation
public import Logging
public import PassmintStore
import PassmintStorePostgres
public import ServiceLifecycle

/// A store opened from a database URL, with what must run while it is used.
public struct OpenedPassStore: Sendable {
    public let store: any PassStore
    /// What must run while the store is used: the PostgreSQL client (`PostgresClientSlot`); none for SQLite.
    public let services: [any Service]
    /// What follows other writers' changes so that the service may cache reads: the PostgreSQL change feed. Nil for
    /// SQLite, whose store notices other processes' commits itself.
    public let changeFeed: (any Service)?
    /// What to call the store in logs: the SQLite file, or `postgres <host>:<port> sslmode=<mode>` (never the URL,
    /// which may hold a password).
    public let name: String

    /// Runs `body` with ``services`` running and the store migrated, then stops them.
    public func whileRunning<T: Sendable>(_ body: (any PassStore) async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for service in services { group.addTask { try await service.run() } }
            do {
                try await store.migrate()
                let result = try await body(store)
                group.cancelAll()
                return result
            } catch {
                group.cancelAll()
                throw error
            }
        }
    }
}

/// Opens the store at `location`: PostgreSQL, or a SQLite file (created when missing). The one place that opens a store,
/// for `serve`, `batch --register` and the tests. `clock` gives the time the store writes (`Last-Modified`, push due
/// times, leases): a test's clock moves only when told.
public func openPassStore(
    _ location: DatabaseLocation, logger: Logger = Logger(label: "passmint.store"),
    clock: @escaping @Sendable () -> Date = { Date() }
) throws -> OpenedPassStore {
    switch location {
    case .postgres(let url):
        let client = PostgresPassStore.client(url, logger: logger)
        let store = PostgresPassStore(client: client, url: url, endpoint: url.endpoint, logger: logger, clock: clock)
        return OpenedPassStore(store: store, services: [store.clients], changeFeed: store.changeFeed, name: location.name)
    case .sqlite(let path):
        do {
            return OpenedPassStore(
                store: try SQLitePassStore(path: path, logger: logger, clock: clock), services: [], changeFeed: nil, name: location.name)
        } catch let error as PassStoreError {
            throw PassStoreError(error.code, error.message + "; give a writable SQLite file path or a postgres://user@host:port/db URL")
        }
    }
}

/// Opens the store a database URL names (``DatabaseLocation/init(_:)``).
public func openPassStore(
    url: String, logger: Logger = Logger(label: "passmint.store"), clock: @escaping @Sendable () -> Date = { Date() }
) throws -> OpenedPassStore {
    try openPassStore(DatabaseLocation(url), logger: logger, clock: clock)
}
