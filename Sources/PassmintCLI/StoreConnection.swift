import Foundation
import Logging
import Passmint
import PassmintStore
import PassmintStorePostgres
import PostgresNIO

/// Opens the update service's store from the command line (`--register`): a SQLite file or a postgres:// URL.
struct StoreConnection {
    let url: String?
    private var client: PostgresClient?
    private var sqlite: SQLitePassStore?

    init(url: String?) {
        self.url = url
        guard let url else { return }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            client = try? PostgresPassStore.client(url: url, logger: Logger(label: "passmint.register"))
        } else {
            sqlite = try? SQLitePassStore(path: url)
        }
    }

    func store() throws -> any PassStore {
        if let client { return PostgresPassStore(client: client) }
        if let sqlite { return sqlite }
        throw PassmintError(.fileSystem, "cannot open the store \(url ?? "(none)"): give a writable SQLite file path or a postgres://user@host:port/db URL")
    }

    /// Runs `body` with the store open (the PostgreSQL client running) and migrated.
    func whileOpen<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard url != nil else { return try await body() }
        let store = try store()
        guard let client else {
            try await store.migrate()
            return try await body()
        }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                await client.run()
                return nil
            }
            try await store.migrate()
            let result = try await body()
            group.cancelAll()
            return result
        }
    }

    /// Records a batch's pass; a serial already recorded with the same token (a resumed batch) is fine.
    static func record(_ issued: BatchRunner.IssuedPass, template: String, in store: any PassStore) async throws {
        let pass = StoredPass(passTypeIdentifier: issued.passTypeIdentifier, serialNumber: issued.serialNumber,
                              authenticationToken: issued.authenticationToken, template: template,
                              dataJSON: JSONWriter.string(.object(issued.data), style: .compact))
        do {
            _ = try await store.insert(pass)
        } catch let error as PassStoreError where error.kind == .duplicate {
            let existing = try await store.pass(passTypeIdentifier: issued.passTypeIdentifier, serialNumber: issued.serialNumber)
            guard existing?.authenticationToken == issued.authenticationToken else {
                throw PassmintError(.invalidData, "serial \(issued.serialNumber) is already in the store with another authentication token")
            }
        }
    }
}
