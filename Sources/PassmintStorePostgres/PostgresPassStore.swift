public import Foundation
public import Logging
public import PassmintStore
public import PostgresNIO

/// The store for a fleet of service nodes: PostgreSQL through PostgresNIO. Every write is a transaction that
/// PostgreSQL commits durably before the call returns. Run ``clients`` as a service (ServiceLifecycle) before use,
/// and ``changeFeed`` beside it for the service to cache device reads.
public final class PostgresPassStore: PassStore {
    /// The client, replaced by a fresh one when the server answers again after an outage (see ``reconnect()``).
    public let clients: PostgresClientSlot
    /// The client requests use now.
    public var client: PostgresClient { clients.current }
    /// Follows this node's and the other nodes' changes (see ``PostgresChangeFeed``).
    public let changeFeed: PostgresChangeFeed
    let logger: Logger
    /// The URL the client was made from, when it was: its TLS is checked before the migrations.
    let url: PostgresURL?
    /// Where it connects, and how long the migrations at start-up wait for a first answer; nil: as long as it takes.
    public let endpoint: PostgresEndpoint?
    /// The time the store writes (`Last-Modified`, push due times and leases): the wall clock, or a test's.
    let clock: @Sendable () -> Date
    /// Names devices in events (salted, see `DeviceHasher`).
    let deviceHasher = DeviceHasher()
    /// The changes waiting for this node's group commit (see ``change(passTypeIdentifier:serialNumber:_:basedOn:)``).
    let changes = PostgresChangeQueue()

    /// A store on `client`; `url` is what the client was made from (a fresh client is made from it after an outage),
    /// `endpoint` bounds reaching it at start-up, `clock` is the time the store writes.
    public init(
        client: PostgresClient, url: PostgresURL? = nil, endpoint: PostgresEndpoint? = nil,
        logger: Logger = Logger(label: "passmint.store.postgres"), clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        var make: (@Sendable () -> PostgresClient)?
        if let url {
            make = { PostgresPassStore.client(url, logger: logger) }
        }
        clients = PostgresClientSlot(client, logger: logger, make: make)
        self.url = url
        self.clock = clock
        self.logger = logger
        self.endpoint = endpoint
        changeFeed = PostgresChangeFeed(clients: clients, logger: logger)
    }

    /// A client for a `postgres://user:password@host:port/database` URL (`?host=/socket/dir` for a Unix socket;
    /// `sslmode` and `sslrootcert` as libpq reads them, see ``PostgresURL``).
    public static func client(url: String, logger: Logger) throws -> PostgresClient {
        client(try PostgresURL(url), logger: logger)
    }

    /// The most connections a node's pool opens.
    public static let maximumConnections = 16

    /// A client for a URL already read.
    public static func client(_ url: PostgresURL, logger: Logger) -> PostgresClient {
        var configuration = url.clientConfiguration
        configuration.options.maximumConnections = maximumConnections
        return PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    /// Moves while the change feed follows, after every commit of this node (before the write returns) and on every
    /// change of another node. Nil when the feed is not following: then nothing is cached.
    public var changeGeneration: UInt64? { changeFeed.generation }

    /// Moves while the change feed follows, after every commit that wrote the `passes` table, of this node or another
    /// (each notifies); nil when the feed is not following.
    public var passGeneration: UInt64? { changeFeed.passGeneration }

    /// Returns once ``changeGeneration`` differs from `previous`, or the task is cancelled.
    public func changed(since previous: UInt64?) async { await changeFeed.changed(since: previous) }

    /// A write transaction; this node's generation moves before it returns, and its pass generation too with `notify`
    /// (a write to the `passes` table). The other nodes hear of a write to `passes` from the table's statement trigger
    /// (migration 13), which notifies on commit: no statement of its own. Nothing else notifies: `NOTIFY` serializes
    /// the commits that send it (a database-wide lock held through the WAL flush), which halved registrations/s, and
    /// the other nodes see other commits through the WAL position their change feed polls instead.
    func write<T: Sendable>(notify: Bool = true, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        defer { changeFeed.noteCommit(passes: notify) }
        do {
            return try await clients.withTransaction(logger: logger) { connection in try await body(connection) }
        } catch let error as PostgresTransactionError {
            // The store's own refusals (a stale version, a serial that exists) reach the caller as they are: the
            // transaction was rolled back, or its connection dropped, and nothing of it was committed either way.
            if let refusal = error.closureError as? PassStoreError, error.commitError == nil { throw refusal }
            throw error
        }
    }

    /// Opens a connection of its own (not one of the client's pool, whose requests wait for the server to come back,
    /// and whose waits are never cancelled from here) and asks `SELECT 1`: a server that is down or unreachable fails
    /// at once, or within 2 s of connecting.
    public func ping() async throws {
        guard let url else {
            for try await _ in try await clients.current.query("SELECT 1", logger: logger) {}
            return
        }
        let connection = try await PostgresConnection.connect(
            configuration: try url.connectionConfiguration(connectTimeout: .seconds(2)), id: 0, logger: logger)
        do {
            for try await _ in try await connection.query("SELECT 1", logger: logger) {}
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }

    /// A PostgreSQL error as a log line says it: its code, the server's SQLSTATE and message, and the cause of a
    /// failed connection; nil for another error. PostgresNIO's own description hides all of it ("Generic description
    /// to prevent accidental leakage"), and its debug description adds the source file and the query, which a log
    /// does not need.
    public static func describe(_ error: any Error) -> String? {
        if let outage = error as? PostgresOutage { return outage.description }
        if let failed = error as? PostgresTransactionError {
            // The step that failed (begin, the work, commit, rollback), without the file and line the type adds.
            let steps = [failed.beginError, failed.closureError, failed.commitError, failed.rollbackError].compactMap { $0 }
            return steps.first.map { describe($0) ?? "\($0)" }
        }
        guard let error = error as? PSQLError else { return nil }
        var text = "PostgreSQL \(error.code)"
        if let state = error.serverInfo?[.sqlState] { text += " \(state)" }
        if let message = error.serverInfo?[.message] { text += ": \(message)" }
        if let underlying = error.underlying { text += " (\(underlying))" }
        return text
    }

    /// Kept by the client slot: out of reach, calls fail at once (``PostgresOutage``); back, a fresh client takes the
    /// place of the pool of the outage, whose next attempt may be a minute away.
    public var isReachable: Bool { clients.isReachable }

    public func reachabilityChanged(reachable: Bool) -> Bool { clients.reachabilityChanged(reachable: reachable) }

    public var connectionUse: StoreConnectionUse? { clients.use }

    public func isOutage(_ error: any Error) -> Bool {
        if error is PostgresOutage { return true }
        if let failed = error as? PostgresTransactionError {
            // A transaction whose BEGIN, work or COMMIT lost the server.
            return [failed.beginError, failed.closureError, failed.commitError].contains { $0.map(isOutage) ?? false }
        }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .serverClosedConnection, .connectionError, .uncleanShutdown, .clientClosedConnection, .poolClosed: return true
        case .server:
            // 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up), 08xxx connection
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("57P") || state.hasPrefix("08")
        default: return false
        }
    }

    public func migrate() async throws {
        let (clients, logger, url) = (clients, logger, url)
        if let endpoint {
            // Reaching the server (TLS as the URL asks) is bounded, the migrations themselves are not (an index on a
            // large table takes long).
            try await endpoint.withinConnectTimeout { step in
                step.now("connecting to check TLS and the login")
                try await url?.checkTLS(logger: logger)
                // The pool itself, not the store's calls: a start-up waits for the server (up to connect_timeout)
                // even while the probe finds it out of reach.
                step.now("waiting for a first answer, SELECT 1")
                _ = try await clients.current.query("SELECT 1", logger: logger)
            }
        } else {
            try await url?.checkTLS(logger: logger)
        }
        try await PostgresSchema.migrate(clients.current, logger: logger)
    }

    public func insert(order passes: [StoredPass], images: [StoredImage], payment: PaymentSettlement?) async throws -> [StoredPass] {
        try await write { connection in
            // One transaction: a serial that exists, or a payment lost, rolls back what was written before it.
            try await self.storeImages(connection, images, logger)
            if let payment, let first = passes.first { try await Self.markIssued(connection, payment, pass: first, logger) }
            var stored: [StoredPass] = []
            let tag = try await Self.nextTag(connection, logger)  // one for the order's passes (see `nextTag`)
            for pass in passes {
                let version = pass.firstVersion(tag: tag, now: clock())
                let updatedAt = Int64(version.updatedAt.timeIntervalSince1970)
                let inserted =
                    try await connection.rowCount(
                        """
                        INSERT INTO passes (
                            pass_type_id, serial_number, authentication_token, template, data, voided, update_tag, updated_at, template_version)
                        VALUES (\(version.passTypeIdentifier), \(version.serialNumber), \(version.authenticationToken), \(version.template),
                                \(version.dataJSON), \(version.voided), \(version.updateTag), \(updatedAt), \(version.templateVersion))
                        ON CONFLICT DO NOTHING RETURNING 1
                        """, logger: logger) > 0
                guard inserted else {
                    throw PassStoreError(
                        .duplicate, "a pass \(pass.passTypeIdentifier) / \(pass.serialNumber) already exists",
                        passKey: PassKey(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber))
                }
                stored.append(version)
            }
            if !stored.isEmpty {
                let now = clock()
                try await Self.insertEvents(
                    connection,
                    stored.map {
                        PassEvent(
                            kind: .issued, passTypeIdentifier: $0.passTypeIdentifier, serialNumber: $0.serialNumber, template: $0.template,
                            at: now)
                    }, logger)
            }
            return stored
        }
    }

    static func selectPass(
        _ connection: PostgresConnection, _ type: String, _ serial: String, forUpdate: Bool, _ logger: Logger
    ) async throws -> StoredPass? {
        let columns = """
            pass_type_id, serial_number, authentication_token, template, data, voided, update_tag, updated_at, last_push, personalization,
            erased_at, template_version
            """
        let query: PostgresQuery =
            forUpdate
            ? "SELECT \(unescaped: columns) FROM passes WHERE pass_type_id = \(type) AND serial_number = \(serial) FOR UPDATE"
            : "SELECT \(unescaped: columns) FROM passes WHERE pass_type_id = \(type) AND serial_number = \(serial)"
        let rows = try await connection.query(query, logger: logger)
        for try await row in rows.decode(PostgresSchema.PassRow.self) { return PostgresSchema.pass(row) }
        return nil
    }

    public func pass(passTypeIdentifier: String, serialNumber: String) async throws -> StoredPass? {
        let statement = SelectPassStatement(passType: passTypeIdentifier, serial: serialNumber)
        for try await row in try await clients.execute(statement, logger: logger) { return PostgresSchema.pass(row) }
        return nil
    }

    public func register(
        deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String, recordsEvents: Bool
    ) async throws -> RegistrationResult {
        // Devices register far more often than anything else is written, so this is one prepared statement. No NOTIFY
        // (see `write`).
        let hash = try await deviceHash(deviceLibraryIdentifier)
        defer { changeFeed.noteCommit(passes: false) }
        let statement = RegisterDeviceStatement(
            device: deviceLibraryIdentifier, pushToken: pushToken, passType: passTypeIdentifier, serial: serialNumber,
            at: PassEvent.milliseconds(clock()), deviceHash: hash, recordsEvents: recordsEvents)
        var created = false
        for try await count in try await clients.execute(statement, logger: logger) { created = count > 0 }
        return created ? .created : .alreadyRegistered
    }

    public func unregister(
        deviceLibraryIdentifier: String, passTypeIdentifier: String, serialNumber: String, recordsEvents: Bool
    ) async throws -> Bool {
        let hash = try await deviceHash(deviceLibraryIdentifier)
        return try await write(notify: false) { connection in
            try await Self.lockPasses(connection, [(passTypeIdentifier, serialNumber)], logger)
            let removed =
                try await connection.rowCount(
                    """
                    DELETE FROM registrations WHERE device_library_id = \(deviceLibraryIdentifier) AND pass_type_id = \(passTypeIdentifier)
                    AND serial_number = \(serialNumber) RETURNING 1
                    """, logger: logger) > 0
            if removed {
                // Without events (a registration that never counted as an install): no `unregistered`, but the pass's
                // install mark goes when no device is left, with `removed` when a device that did count left meanwhile.
                try await Self.recordLeaving(
                    connection, [(passTypeIdentifier, serialNumber, recordsEvents ? hash : "")], kind: recordsEvents ? .unregistered : nil,
                    at: clock(), logger)
            }
            try await connection.query(
                """
                DELETE FROM devices WHERE device_library_id = \(deviceLibraryIdentifier)
                AND NOT EXISTS (SELECT 1 FROM registrations WHERE device_library_id = \(deviceLibraryIdentifier))
                """, logger: logger)
            return removed
        }
    }

    public func updatedSerials(
        deviceLibraryIdentifier: String, passTypeIdentifier: String, updatedSince: Int64?
    ) async throws -> UpdatedSerials {
        let since = updatedSince ?? -1
        let rows = try await clients.query(
            """
            SELECT p.serial_number, p.update_tag, \(unescaped: Self.settledTagSQL) FROM registrations r
            JOIN passes p ON p.pass_type_id = r.pass_type_id AND p.serial_number = r.serial_number
            WHERE r.device_library_id = \(deviceLibraryIdentifier) AND r.pass_type_id = \(passTypeIdentifier) AND p.update_tag > \(since)
            ORDER BY p.update_tag
            """, logger: logger)
        let polled = try await Self.polled(rows, since: updatedSince)
        return UpdatedSerials(serialNumbers: polled.identifiers, lastUpdated: polled.lastUpdated)
    }

    public func registrations(passTypeIdentifier: String, serialNumber: String) async throws -> [DeviceRegistration] {
        try await client.withConnection { connection in
            try await Self.registrations(connection, passTypeIdentifier, serialNumber, logger)
        }
    }

    static func registrations(
        _ connection: PostgresConnection, _ type: String, _ serial: String, _ logger: Logger
    ) async throws -> [DeviceRegistration] {
        let rows = try await connection.query(
            """
            SELECT d.device_library_id, d.push_token FROM registrations r JOIN devices d ON d.device_library_id = r.device_library_id
            WHERE r.pass_type_id = \(type) AND r.serial_number = \(serial) ORDER BY d.device_library_id
            """, logger: logger)
        var found: [DeviceRegistration] = []
        for try await (device, token) in rows.decode((String, String).self) {
            found.append(DeviceRegistration(deviceLibraryIdentifier: device, pushToken: token))
        }
        return found
    }
}

extension PostgresPassStore: PassStoreInspection {
    package func pushToken(deviceLibraryIdentifier: String) async throws -> String? {
        let rows = try await clients.query(
            "SELECT push_token FROM devices WHERE device_library_id = \(deviceLibraryIdentifier)", logger: logger)
        for try await token in rows.decode(String.self) { return token }
        return nil
    }

    package func passRow(passTypeIdentifier: String, serialNumber: String) async throws -> [String: String?]? {
        let rows = try await client.query(
            """
            SELECT data, personalization, CASE WHEN voided THEN '1' ELSE '0' END, erased_at::text FROM passes
            WHERE pass_type_id = \(passTypeIdentifier) AND serial_number = \(serialNumber)
            """, logger: logger)
        for try await (data, personalization, voided, erasedAt) in rows.decode((String, String?, String, String?).self) {
            return ["data": data, "personalization": personalization, "voided": voided, "erased_at": erasedAt]
        }
        return nil
    }
}
