public import Foundation
public import Logging
import Synchronization

/// The embedded store: one SQLite file in WAL mode.
///
/// Writes go through one connection on a dedicated thread that commits them in groups (with
/// `synchronous=FULL`, so an acknowledged registration survives a power cut). Reads use a small pool of read-only
/// connections, which WAL lets run beside the writer.
public final class SQLitePassStore: PassStore, @unchecked Sendable {
    // @unchecked: the writer connection is used only on the writer thread; readers are handed out under a Mutex.
    public let path: String
    let writer: GroupCommitWriter
    private let readers: Mutex<[SQLiteConnection]>
    private let logger: Logger
    /// The time the store writes (`Last-Modified`, push due times and leases): the wall clock, or a test's.
    let clock: @Sendable () -> Date
    /// Names devices in events (salted, see ``DeviceHasher``).
    let deviceHasher = DeviceHasher()

    /// Opens (creating when missing) the database file. `clock` gives the time the store writes.
    public init(path: String, logger: Logger = Logger(label: "passmint.store.sqlite"), clock: @escaping @Sendable () -> Date = { Date() })
        throws
    {
        self.path = path
        self.logger = logger
        self.clock = clock
        let connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
        writer = GroupCommitWriter(connection: connection)
        readers = Mutex([])
    }

    /// Changes after every commit, before the writers waiting on it are answered, and when another process committed.
    public var changeGeneration: UInt64? { writer.generation }

    /// Returns once ``changeGeneration`` differs from `previous` (a commit of this store's, or another process's seen),
    /// or the task is cancelled.
    public func changed(since previous: UInt64?) async {
        guard let previous else { return }
        await writer.changed(since: previous)
    }

    /// A SQLite file is on this machine: always reachable (its errors are the request's or the disk's).
    public func ping() async throws {}

    /// A SQLite file is never out of reach: its errors are the request's or the disk's.
    public func isOutage(_ error: any Error) -> Bool { false }

    /// A SQLite file is always reachable, and has no connections to replace.
    public var isReachable: Bool { true }

    public func reachabilityChanged(reachable: Bool) -> Bool { false }

    /// A SQLite file has no pool.
    public var connectionUse: StoreConnectionUse? { nil }

    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try readers.withLock { pool in pool.popLast() } ?? SQLiteConnection(path: path, readOnly: true)
        defer { readers.withLock { pool in if pool.count < 8 { pool.append(connection) } } }
        return try body(connection)
    }

    public func migrate() async throws {
        try await writer.write { db in try SQLiteSchema.migrate(db) }
    }

    public func insert(order passes: [StoredPass], images: [StoredImage], payment: PaymentSettlement?) async throws -> [StoredPass] {
        try await writer.write { db in
            // One savepoint (the writer's job): a serial that exists, or a payment lost, undoes what was written before.
            try self.storeImages(db, images)
            if let payment, let first = passes.first { try Self.markIssued(db, payment, pass: first) }
            return try passes.map { pass in
                let stored = pass.firstVersion(tag: try SQLiteSchema.nextTag(db), now: self.clock())
                do {
                    try db.query(
                        "INSERT INTO passes (\(SQLiteSchema.passColumns)) VALUES \(SQLiteSchema.newPassPlaceholders)",
                        SQLiteSchema.newPassValues(stored))
                } catch let error as PassStoreError where error.code == .duplicate {
                    throw PassStoreError(
                        .duplicate, "a pass \(pass.passTypeIdentifier) / \(pass.serialNumber) already exists",
                        passKey: PassKey(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber))
                }
                try Self.insertEvents(
                    db,
                    [
                        PassEvent(
                            kind: .issued, passTypeIdentifier: stored.passTypeIdentifier, serialNumber: stored.serialNumber,
                            template: stored.template, at: self.clock())
                    ])
                return stored
            }
        }
    }

    public func pass(passTypeIdentifier: String, serialNumber: String) async throws -> StoredPass? {
        try read { db in try Self.pass(db, passTypeIdentifier, serialNumber) }
    }

    static func pass(_ db: SQLiteConnection, _ type: String, _ serial: String) throws -> StoredPass? {
        var found: StoredPass?
        try db.query(SQLiteSchema.selectPass, [.text(type), .text(serial)]) { found = SQLiteSchema.pass($0) }
        return found
    }

    public func change(passTypeIdentifier: String, serialNumber: String, _ edit: PassEdit, basedOn: Int64?) async throws -> PassChange? {
        try await writer.write { db in
            // The writer thread is the only writer: what it reads here stays as read until the commit.
            guard let current = try Self.pass(db, passTypeIdentifier, serialNumber) else { return nil }
            var pass = current
            let edited = try edit.applied(to: current, basedOn: basedOn, now: self.clock())
            if let edited {
                try self.storeImages(db, edit.images)  // in the transaction of the pass that names them
                pass = edited.nextVersion(tag: try SQLiteSchema.nextTag(db), now: self.clock())
                try db.query(SQLiteSchema.updatePass, SQLiteSchema.versionValues(pass))
                try Self.insertEvents(
                    db,
                    [
                        PassEvent(
                            kind: .updated, passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber,
                            template: pass.template, at: self.clock())
                    ])
            }
            let registrations = try Self.registrations(db, passTypeIdentifier, serialNumber)
            if edited != nil {
                try Self.owePushes(db, tokens: registrations.map(\.pushToken), passTypeIdentifier: passTypeIdentifier, now: self.clock())
                try Self.oweGoogleUpdate(db, passTypeIdentifier, serialNumber, now: self.clock())
            }
            return PassChange(pass: pass, changed: edited != nil, registrations: registrations)
        }
    }

    public func register(
        deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String, recordsEvents: Bool
    ) async throws -> RegistrationResult {
        // The hash (an HMAC) is made here rather than on the writer's thread, which every write waits for.
        let hash = deviceHasher.hash(deviceLibraryIdentifier)
        return try await writer.write { db in
            try db.query(
                """
                INSERT INTO devices (device_library_id, push_token) VALUES (?, ?) ON CONFLICT (device_library_id)
                DO UPDATE SET push_token = excluded.push_token WHERE push_token <> excluded.push_token
                """, [.text(deviceLibraryIdentifier), .text(pushToken)])
            try db.query(
                "INSERT OR IGNORE INTO registrations (device_library_id, pass_type_id, serial_number) VALUES (?, ?, ?)",
                [.text(deviceLibraryIdentifier), .text(passTypeIdentifier), .text(serialNumber)])
            guard db.changes > 0 else { return .alreadyRegistered }
            guard recordsEvents else { return .created }
            try Self.recordRegistration(
                db, passTypeIdentifier, serialNumber, device: deviceLibraryIdentifier, at: self.clock(),
                deviceHash: try hash ?? self.deviceHash(db, deviceLibraryIdentifier))
            return .created
        }
    }

    public func unregister(
        deviceLibraryIdentifier: String, passTypeIdentifier: String, serialNumber: String, recordsEvents: Bool
    ) async throws -> Bool {
        try await writer.write { db in
            try db.query(
                "DELETE FROM registrations WHERE device_library_id = ? AND pass_type_id = ? AND serial_number = ?",
                [.text(deviceLibraryIdentifier), .text(passTypeIdentifier), .text(serialNumber)])
            let removed = db.changes > 0
            if removed && recordsEvents {
                let hash = try self.deviceHash(db, deviceLibraryIdentifier)
                try Self.insertPassEvent(db, .unregistered, passTypeIdentifier, serialNumber, at: self.clock(), deviceHash: hash)
                try Self.recordRemovalIfLast(db, passTypeIdentifier, serialNumber, at: self.clock(), deviceHash: hash)
            }
            try db.query(SQLiteSchema.removeDeviceWithoutRegistrations, [.text(deviceLibraryIdentifier), .text(deviceLibraryIdentifier)])
            return removed
        }
    }

    /// The poll's query. `CROSS JOIN` makes SQLite start from the device's few registrations: left to itself (no
    /// statistics) it walked every pass of the type by `passes_by_tag` and probed each for a registration, so a poll
    /// cost grew with the number of passes (2,000 passes: 5k polls/s instead of 30k+).
    static let updatedSerialsQuery = """
        SELECT p.serial_number, p.update_tag FROM registrations r
        CROSS JOIN passes p ON p.pass_type_id = r.pass_type_id AND p.serial_number = r.serial_number
        WHERE r.device_library_id = ? AND r.pass_type_id = ? AND p.update_tag > ? ORDER BY p.update_tag
        """

    public func updatedSerials(
        deviceLibraryIdentifier: String, passTypeIdentifier: String, updatedSince: Int64?
    ) async throws -> UpdatedSerials {
        try read { db in
            var serials: [String] = []
            var last: Int64 = updatedSince ?? 0
            let values: [SQLiteConnection.Value] = [
                .text(deviceLibraryIdentifier), .text(passTypeIdentifier), .integer(updatedSince ?? -1),
            ]
            try db.query(Self.updatedSerialsQuery, values) { row in
                serials.append(row.text(0) ?? "")
                last = max(last, row.integer(1))
            }
            return UpdatedSerials(serialNumbers: serials, lastUpdated: last)
        }
    }

    public func registrations(passTypeIdentifier: String, serialNumber: String) async throws -> [DeviceRegistration] {
        try read { db in try Self.registrations(db, passTypeIdentifier, serialNumber) }
    }

    private static func registrations(_ db: SQLiteConnection, _ type: String, _ serial: String) throws -> [DeviceRegistration] {
        var found: [DeviceRegistration] = []
        try db.query(
            """
            SELECT d.device_library_id, d.push_token FROM registrations r JOIN devices d ON d.device_library_id = r.device_library_id
            WHERE r.pass_type_id = ? AND r.serial_number = ? ORDER BY d.device_library_id
            """, [.text(type), .text(serial)]
        ) {
            found.append(DeviceRegistration(deviceLibraryIdentifier: $0.text(0) ?? "", pushToken: $0.text(1) ?? ""))
        }
        return found
    }
}

extension SQLitePassStore: PassStoreInspection {
    package func pushToken(deviceLibraryIdentifier: String) async throws -> String? {
        try read { db in
            var token: String?
            try db.query("SELECT push_token FROM devices WHERE device_library_id = ?", [.text(deviceLibraryIdentifier)]) {
                token = $0.text(0)
            }
            return token
        }
    }

    package func passRow(passTypeIdentifier: String, serialNumber: String) async throws -> [String: String?]? {
        try read { db in
            var row: [String: String?]?
            try db.query(
                "SELECT data, personalization, CAST(voided AS TEXT), CAST(erased_at AS TEXT) FROM passes WHERE pass_type_id = ? AND serial_number = ?",
                [.text(passTypeIdentifier), .text(serialNumber)]
            ) { row = ["data": $0.text(0), "personalization": $0.text(1), "voided": $0.text(2), "erased_at": $0.text(3)] }
            return row
        }
    }
}
