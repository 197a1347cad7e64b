import Foundation
public import Logging
import Synchronization
public import PassmintStore
public import PostgresNIO

/// The store for a fleet of service nodes: PostgreSQL through PostgresNIO. Every write is a transaction that
/// PostgreSQL commits durably before the call returns. Run ``client`` as a service (ServiceLifecycle) or call
/// `client.run()` in a task before use.
public final class PostgresPassStore: PassStore {
    public let client: PostgresClient
    private let logger: Logger
    /// Bumped after this node's commits and on every change another node announces (see ``runChangeFeed()``).
    private let generation = Atomic<UInt64>(0)
    /// True while the change feed listens: only then may the service cache reads.
    private let feedListening = Atomic<Bool>(false)

    /// The channel every write transaction notifies on commit.
    static let changeChannel = "passmint_changes"

    public init(client: PostgresClient, logger: Logger = Logger(label: "passmint.store.postgres")) {
        self.client = client
        self.logger = logger
    }

    /// A client for a `postgres://user:password@host:port/database` URL (`?host=/socket/dir` for a Unix socket).
    public static func client(url: String, logger: Logger) throws -> PostgresClient {
        guard let components = URLComponents(string: url), components.scheme == "postgres" || components.scheme == "postgresql" else {
            throw PassStoreError(.database, "\(url) is not a postgres://user:password@host:port/database URL")
        }
        let user = components.user ?? "postgres"
        let database = components.path.count > 1 ? String(components.path.dropFirst()) : user
        let socketDirectory = components.queryItems?.first { $0.name == "host" }?.value
        var configuration: PostgresClient.Configuration
        if let socketDirectory {
            configuration = .init(unixSocketPath: socketDirectory + "/.s.PGSQL.\(components.port ?? 5432)", username: user,
                                  password: components.password, database: database)
        } else {
            configuration = .init(host: components.host ?? "localhost", port: components.port ?? 5432, username: user,
                                  password: components.password, database: database, tls: .disable)
        }
        configuration.options.maximumConnections = 16
        return PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    static let migrations: [(Int, String, [String])] = [
        (1, "create passes, devices, registrations", [
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
        ]),
        (2, "personalization of rewards passes", ["ALTER TABLE passes ADD COLUMN IF NOT EXISTS personalization TEXT"]),
    ]

    /// Changes while the change feed listens, after every commit of this node (before the write returns) and on
    /// every change another node announces. Nil when the feed is not listening: then nothing is cached.
    public var changeGeneration: UInt64? {
        feedListening.load(ordering: .acquiring) ? generation.load(ordering: .acquiring) : nil
    }

    /// A write transaction; this node's generation moves before it returns. With `notify` (every change to a pass)
    /// it notifies the other nodes on commit. Registrations do not notify: `NOTIFY` serializes the commits that send
    /// it (a database-wide lock held through the WAL flush), which halved registrations/s, and the other nodes see
    /// them through the WAL position they poll (``runChangeFeed()``) within ``walPollInterval`` instead.
    private func write<T: Sendable>(notify: Bool = true, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        defer { generation.add(1, ordering: .releasing) }
        return try await client.withTransaction(logger: logger) { connection in
            let value = try await body(connection)
            if notify { try await connection.query(PostgresQuery(unsafeSQL: "NOTIFY \(Self.changeChannel)"), logger: logger) }
            return value
        }
    }

    /// How often the change feed reads the server's WAL position, which moves with every commit of any node.
    public static let walPollInterval = Duration.milliseconds(20)

    /// Follows the changes other nodes make, so that each node can cache the device endpoints' reads: it `LISTEN`s
    /// (every change to a pass `NOTIFY`s on commit, and shows here as soon as the notification arrives, normally well
    /// under a millisecond on a LAN), and reads the server's WAL insert position every ``walPollInterval`` (it moves
    /// with every commit, registrations included, which do not notify: they show here within two intervals). Runs
    /// until cancelled; while it is not following (starting, or reconnecting after a lost connection)
    /// ``changeGeneration`` is nil and nothing is cached. Run it as a service beside the client.
    public func runChangeFeed() async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.changeChannel) { notifications in
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask { try await self.followWALPosition() }
                            generation.add(1, ordering: .releasing)  // whatever was cached before listening is stale
                            feedListening.store(true, ordering: .releasing)
                            for try await _ in notifications { generation.add(1, ordering: .releasing) }
                            group.cancelAll()
                        }
                    }
                }
            } catch {
                if !Task.isCancelled { logger.warning("change feed lost; reads are not cached until it is back", metadata: ["error": "\(error)"]) }
            }
            feedListening.store(false, ordering: .releasing)
            generation.add(1, ordering: .releasing)
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Bumps the generation whenever the server's WAL insert position moved since the last look, and once more on the
    /// look after (a commit's WAL record is written a moment before the commit becomes visible: a read between the two
    /// could cache the state before it).
    private func followWALPosition() async throws {
        var last = ""
        var recheck = false
        while !Task.isCancelled {
            var position = ""
            for try await text in try await client.query("SELECT pg_current_wal_insert_lsn()::text", logger: logger).decode(String.self) { position = text }
            if position != last || recheck {
                generation.add(1, ordering: .releasing)
                recheck = position != last
                last = position
            }
            try await Task.sleep(for: Self.walPollInterval)
        }
    }

    public func migrate() async throws {
        try await client.withTransaction(logger: logger) { connection in
            // One node migrates at a time.
            try await connection.query("SELECT pg_advisory_xact_lock(8154711)", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS schema_migrations (version INT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)", logger: logger)
            var applied: Set<Int> = []
            for try await version in try await connection.query("SELECT version FROM schema_migrations", logger: logger).decode(Int.self) {
                applied.insert(version)
            }
            for (version, name, statements) in Self.migrations where !applied.contains(version) {
                for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                let now = Int64(Date().timeIntervalSince1970)
                try await connection.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(version), \(name), \(now))", logger: logger)
            }
        }
    }

    private typealias PassRow = (String, String, String, String, String, Bool, Int64, Int64, String?, String?)

    private static func pass(_ row: PassRow) -> StoredPass {
        StoredPass(passTypeIdentifier: row.0, serialNumber: row.1, authenticationToken: row.2, template: row.3, dataJSON: row.4, voided: row.5,
                   updateTag: row.6, updatedAt: Date(timeIntervalSince1970: TimeInterval(row.7)), lastPushJSON: row.8, personalizationJSON: row.9)
    }

    private static func nextTag(_ connection: PostgresConnection, _ logger: Logger) async throws -> Int64 {
        let rows = try await connection.query("UPDATE counters SET value = value + 1 WHERE name = 'update_tag' RETURNING value", logger: logger)
        for try await value in rows.decode(Int64.self) { return value }
        throw PassStoreError(.database, "the update_tag counter is missing: run the migrations")
    }

    public func insert(_ pass: StoredPass) async throws -> StoredPass {
        do {
            return try await write { connection in
                var stored = pass
                stored.updateTag = try await Self.nextTag(connection, logger)
                stored.updatedAt = StoredPass.nextUpdateDate(after: nil)
                let updatedAt = Int64(stored.updatedAt.timeIntervalSince1970)
                try await connection.query("""
                    INSERT INTO passes (pass_type_id, serial_number, authentication_token, template, data, voided, update_tag, updated_at)
                    VALUES (\(stored.passTypeIdentifier), \(stored.serialNumber), \(stored.authenticationToken), \(stored.template),
                            \(stored.dataJSON), \(stored.voided), \(stored.updateTag), \(updatedAt))
                    """, logger: logger)
                return stored
            }
        } catch {
            if Self.isUniqueViolation(error) {
                throw PassStoreError(.duplicate, "a pass \(pass.passTypeIdentifier) / \(pass.serialNumber) already exists")
            }
            throw error
        }
    }

    private static func selectPass(_ connection: PostgresConnection, _ type: String, _ serial: String, forUpdate: Bool, _ logger: Logger) async throws -> StoredPass? {
        let query: PostgresQuery = forUpdate
            ? "SELECT pass_type_id, serial_number, authentication_token, template, data, voided, update_tag, updated_at, last_push, personalization FROM passes WHERE pass_type_id = \(type) AND serial_number = \(serial) FOR UPDATE"
            : "SELECT pass_type_id, serial_number, authentication_token, template, data, voided, update_tag, updated_at, last_push, personalization FROM passes WHERE pass_type_id = \(type) AND serial_number = \(serial)"
        let rows = try await connection.query(query, logger: logger)
        for try await row in rows.decode(PassRow.self) { return pass(row) }
        return nil
    }

    /// A unique-key violation (SQLSTATE 23505), directly or inside a transaction error.
    static func isUniqueViolation(_ error: any Error) -> Bool {
        if let error = error as? PSQLError { return error.serverInfo?[.sqlState] == "23505" }
        if let error = error as? PostgresTransactionError, let inner = error.closureError { return isUniqueViolation(inner) }
        return false
    }

    public func pass(passTypeIdentifier: String, serialNumber: String) async throws -> StoredPass? {
        try await client.withConnection { connection in
            try await Self.selectPass(connection, passTypeIdentifier, serialNumber, forUpdate: false, logger)
        }
    }

    public func update(passTypeIdentifier: String, serialNumber: String, dataJSON: String, voided: Bool) async throws -> StoredPass? {
        try await write { connection in
            guard var pass = try await Self.selectPass(connection, passTypeIdentifier, serialNumber, forUpdate: true, logger) else { return nil }
            pass.dataJSON = dataJSON
            pass.voided = voided
            pass.updateTag = try await Self.nextTag(connection, logger)
            pass.updatedAt = StoredPass.nextUpdateDate(after: pass.updatedAt)
            let updatedAt = Int64(pass.updatedAt.timeIntervalSince1970)
            try await connection.query("""
                UPDATE passes SET data = \(dataJSON), voided = \(voided), update_tag = \(pass.updateTag), updated_at = \(updatedAt)
                WHERE pass_type_id = \(passTypeIdentifier) AND serial_number = \(serialNumber)
                """, logger: logger)
            return pass
        }
    }

    public func personalize(passTypeIdentifier: String, serialNumber: String, personalizationJSON: String) async throws -> StoredPass? {
        try await write { connection in
            guard var pass = try await Self.selectPass(connection, passTypeIdentifier, serialNumber, forUpdate: true, logger) else { return nil }
            if pass.personalizationJSON != nil { return pass }
            pass.personalizationJSON = personalizationJSON
            pass.updateTag = try await Self.nextTag(connection, logger)
            pass.updatedAt = StoredPass.nextUpdateDate(after: pass.updatedAt)
            let updatedAt = Int64(pass.updatedAt.timeIntervalSince1970)
            try await connection.query("""
                UPDATE passes SET personalization = \(personalizationJSON), update_tag = \(pass.updateTag), updated_at = \(updatedAt)
                WHERE pass_type_id = \(passTypeIdentifier) AND serial_number = \(serialNumber)
                """, logger: logger)
            return pass
        }
    }

    public func register(deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String) async throws -> RegistrationResult {
        // Devices register far more often than anything else is written, so this is one prepared statement (its own
        // transaction, one round trip, parsed and planned once per connection): the device row and the registration
        // commit together. No NOTIFY (see `write`).
        defer { generation.add(1, ordering: .releasing) }
        let rows = try await client.execute(
            RegisterDevice(device: deviceLibraryIdentifier, pushToken: pushToken, passType: passTypeIdentifier, serial: serialNumber), logger: logger)
        var created = false
        for try await count in rows { created = count > 0 }
        return created ? .created : .alreadyRegistered
    }

    /// The registration as a prepared statement: the device row (its push token updated when it changed) and the
    /// registration; the row count says whether the registration is new.
    struct RegisterDevice: PostgresPreparedStatement {
        static let sql = """
            WITH device AS (
                INSERT INTO devices (device_library_id, push_token) VALUES ($1, $2)
                ON CONFLICT (device_library_id) DO UPDATE SET push_token = EXCLUDED.push_token WHERE devices.push_token <> EXCLUDED.push_token),
            registration AS (
                INSERT INTO registrations (device_library_id, pass_type_id, serial_number) VALUES ($1, $3, $4)
                ON CONFLICT DO NOTHING RETURNING 1)
            SELECT count(*) FROM registration
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .text, .text]
        typealias Row = Int64

        var device: String
        var pushToken: String
        var passType: String
        var serial: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(device)
            bindings.append(pushToken)
            bindings.append(passType)
            bindings.append(serial)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    public func unregister(deviceLibraryIdentifier: String, passTypeIdentifier: String, serialNumber: String) async throws -> Bool {
        try await write(notify: false) { connection in
            let rows = try await connection.query("""
                DELETE FROM registrations WHERE device_library_id = \(deviceLibraryIdentifier) AND pass_type_id = \(passTypeIdentifier)
                AND serial_number = \(serialNumber) RETURNING 1
                """, logger: logger)
            var removed = false
            for try await _ in rows.decode(Int.self) { removed = true }
            try await connection.query("""
                DELETE FROM devices WHERE device_library_id = \(deviceLibraryIdentifier)
                AND NOT EXISTS (SELECT 1 FROM registrations WHERE device_library_id = \(deviceLibraryIdentifier))
                """, logger: logger)
            return removed
        }
    }

    public func updatedSerials(deviceLibraryIdentifier: String, passTypeIdentifier: String, updatedSince: Int64?) async throws -> UpdatedSerials {
        let since = updatedSince ?? -1
        let rows = try await client.query("""
            SELECT p.serial_number, p.update_tag FROM registrations r
            JOIN passes p ON p.pass_type_id = r.pass_type_id AND p.serial_number = r.serial_number
            WHERE r.device_library_id = \(deviceLibraryIdentifier) AND r.pass_type_id = \(passTypeIdentifier) AND p.update_tag > \(since)
            ORDER BY p.update_tag
            """, logger: logger)
        var result = UpdatedSerials(serialNumbers: [], lastUpdated: updatedSince ?? 0)
        for try await (serial, tag) in rows.decode((String, Int64).self) {
            result.serialNumbers.append(serial)
            result.lastUpdated = max(result.lastUpdated, tag)
        }
        return result
    }

    public func registrations(passTypeIdentifier: String, serialNumber: String) async throws -> [DeviceRegistration] {
        let rows = try await client.query("""
            SELECT d.device_library_id, d.push_token FROM registrations r JOIN devices d ON d.device_library_id = r.device_library_id
            WHERE r.pass_type_id = \(passTypeIdentifier) AND r.serial_number = \(serialNumber) ORDER BY d.device_library_id
            """, logger: logger)
        var found: [DeviceRegistration] = []
        for try await (device, token) in rows.decode((String, String).self) {
            found.append(DeviceRegistration(deviceLibraryIdentifier: device, pushToken: token))
        }
        return found
    }

    public func removeDevices(pushToken: String) async throws {
        try await write(notify: false) { connection in
            try await connection.query("DELETE FROM registrations WHERE device_library_id IN (SELECT device_library_id FROM devices WHERE push_token = \(pushToken))", logger: logger)
            try await connection.query("DELETE FROM devices WHERE push_token = \(pushToken)", logger: logger)
        }
    }

    public func delete(passTypeIdentifier: String, serialNumber: String) async throws -> Bool {
        try await write { connection in
            let owners = try await connection.query("""
                DELETE FROM registrations WHERE pass_type_id = \(passTypeIdentifier) AND serial_number = \(serialNumber)
                RETURNING device_library_id
                """, logger: logger)
            var devices: [String] = []
            for try await device in owners.decode(String.self) { devices.append(device) }
            try await connection.query("""
                DELETE FROM devices d WHERE d.device_library_id = ANY(\(devices))
                AND NOT EXISTS (SELECT 1 FROM registrations r WHERE r.device_library_id = d.device_library_id)
                """, logger: logger)
            let rows = try await connection.query(
                "DELETE FROM passes WHERE pass_type_id = \(passTypeIdentifier) AND serial_number = \(serialNumber) RETURNING 1", logger: logger)
            var removed = false
            for try await _ in rows.decode(Int.self) { removed = true }
            return removed
        }
    }

    public func pushToken(deviceLibraryIdentifier: String) async throws -> String? {
        let rows = try await client.query("SELECT push_token FROM devices WHERE device_library_id = \(deviceLibraryIdentifier)", logger: logger)
        for try await token in rows.decode(String.self) { return token }
        return nil
    }

    public func recordPush(passTypeIdentifier: String, serialNumber: String, resultJSON: String) async throws {
        try await client.query("UPDATE passes SET last_push = \(resultJSON) WHERE pass_type_id = \(passTypeIdentifier) AND serial_number = \(serialNumber)", logger: logger)
    }
}
