import Foundation
public import Logging
import Synchronization

/// The embedded store: one SQLite file in WAL mode.
///
/// Writes go through one connection on a dedicated thread that commits them in groups: every write waiting when a
/// transaction starts joins it, and all of them return after the one commit (with `synchronous=FULL`, so an
/// acknowledged registration survives a power cut). Reads use a small pool of read-only connections, which WAL lets
/// run beside the writer.
public final class SQLitePassStore: PassStore, @unchecked Sendable {
    // @unchecked: the writer connection is used only on the writer thread; readers are handed out under a Mutex.
    public let path: String
    private let writer: GroupCommitWriter
    private let readers: Mutex<[SQLiteConnection]>
    private let logger: Logger

    /// Opens (creating when missing) the database file.
    public init(path: String, logger: Logger = Logger(label: "passmint.store.sqlite")) throws {
        self.path = path
        self.logger = logger
        let connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
        writer = GroupCommitWriter(connection: connection)
        readers = Mutex([])
    }

    /// Changes after every commit, before the writers waiting on it are answered (one process per database file).
    public var changeGeneration: UInt64? { writer.generation }

    private func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try readers.withLock { pool in pool.popLast() } ?? SQLiteConnection(path: path, readOnly: true)
        defer { readers.withLock { pool in if pool.count < 8 { pool.append(connection) } } }
        return try body(connection)
    }

    static let migrations: [(Int, String, String)] = [
        (1, "create passes, devices, registrations", """
            CREATE TABLE IF NOT EXISTS passes (
                pass_type_id TEXT NOT NULL, serial_number TEXT NOT NULL, authentication_token TEXT NOT NULL,
                template TEXT NOT NULL, data TEXT NOT NULL, voided INTEGER NOT NULL DEFAULT 0,
                update_tag INTEGER NOT NULL, updated_at INTEGER NOT NULL, last_push TEXT,
                PRIMARY KEY (pass_type_id, serial_number));
            CREATE INDEX IF NOT EXISTS passes_by_tag ON passes (pass_type_id, update_tag);
            CREATE TABLE IF NOT EXISTS devices (device_library_id TEXT PRIMARY KEY, push_token TEXT NOT NULL);
            CREATE INDEX IF NOT EXISTS devices_by_token ON devices (push_token);
            CREATE TABLE IF NOT EXISTS registrations (
                device_library_id TEXT NOT NULL, pass_type_id TEXT NOT NULL, serial_number TEXT NOT NULL,
                PRIMARY KEY (device_library_id, pass_type_id, serial_number));
            CREATE INDEX IF NOT EXISTS registrations_by_pass ON registrations (pass_type_id, serial_number);
            CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
            INSERT OR IGNORE INTO counters (name, value) VALUES ('update_tag', 0);
            """),
        (2, "personalization of rewards passes", "ALTER TABLE passes ADD COLUMN personalization TEXT;"),
    ]

    public func migrate() async throws {
        try await writer.write { db in
            try db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)")
            var applied: Set<Int64> = []
            try db.query("SELECT version FROM schema_migrations") { applied.insert($0.integer(0)) }
            for (version, name, sql) in Self.migrations where !applied.contains(Int64(version)) {
                try db.execute(sql)
                try db.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                             [.integer(Int64(version)), .text(name), .integer(Int64(Date().timeIntervalSince1970))])
            }
        }
    }

    private static func nextTag(_ db: SQLiteConnection) throws -> Int64 {
        var tag: Int64 = 0
        try db.query("UPDATE counters SET value = value + 1 WHERE name = 'update_tag' RETURNING value") { tag = $0.integer(0) }
        return tag
    }

    private static let passColumns = "pass_type_id, serial_number, authentication_token, template, data, voided, update_tag, updated_at, last_push, personalization"

    private static func pass(_ row: SQLiteConnection.Row) -> StoredPass {
        StoredPass(
            passTypeIdentifier: row.text(0) ?? "", serialNumber: row.text(1) ?? "", authenticationToken: row.text(2) ?? "",
            template: row.text(3) ?? "", dataJSON: row.text(4) ?? "{}", voided: row.integer(5) != 0, updateTag: row.integer(6),
            updatedAt: Date(timeIntervalSince1970: TimeInterval(row.integer(7))), lastPushJSON: row.text(8),
            personalizationJSON: row.text(9))
    }

    public func insert(_ pass: StoredPass) async throws -> StoredPass {
        try await writer.write { db in
            var stored = pass
            stored.updateTag = try Self.nextTag(db)
            stored.updatedAt = StoredPass.nextUpdateDate(after: nil)
            do {
                try db.query(
                    "INSERT INTO passes (\(Self.passColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)",
                    [.text(stored.passTypeIdentifier), .text(stored.serialNumber), .text(stored.authenticationToken), .text(stored.template),
                     .text(stored.dataJSON), .integer(stored.voided ? 1 : 0), .integer(stored.updateTag), .integer(Int64(stored.updatedAt.timeIntervalSince1970))])
            } catch let error as PassStoreError where error.kind == .duplicate {
                throw PassStoreError(.duplicate, "a pass \(pass.passTypeIdentifier) / \(pass.serialNumber) already exists")
            }
            return stored
        }
    }

    public func pass(passTypeIdentifier: String, serialNumber: String) async throws -> StoredPass? {
        try read { db in
            var found: StoredPass?
            try db.query("SELECT \(Self.passColumns) FROM passes WHERE pass_type_id = ? AND serial_number = ?",
                         [.text(passTypeIdentifier), .text(serialNumber)]) { found = Self.pass($0) }
            return found
        }
    }

    public func update(passTypeIdentifier: String, serialNumber: String, dataJSON: String, voided: Bool) async throws -> StoredPass? {
        try await writer.write { db in
            var current: StoredPass?
            try db.query("SELECT \(Self.passColumns) FROM passes WHERE pass_type_id = ? AND serial_number = ?",
                         [.text(passTypeIdentifier), .text(serialNumber)]) { current = Self.pass($0) }
            guard var pass = current else { return nil }
            pass.dataJSON = dataJSON
            pass.voided = voided
            pass.updateTag = try Self.nextTag(db)
            pass.updatedAt = StoredPass.nextUpdateDate(after: pass.updatedAt)
            try db.query("UPDATE passes SET data = ?, voided = ?, update_tag = ?, updated_at = ? WHERE pass_type_id = ? AND serial_number = ?",
                         [.text(dataJSON), .integer(voided ? 1 : 0), .integer(pass.updateTag), .integer(Int64(pass.updatedAt.timeIntervalSince1970)),
                          .text(passTypeIdentifier), .text(serialNumber)])
            return pass
        }
    }

    public func personalize(passTypeIdentifier: String, serialNumber: String, personalizationJSON: String) async throws -> StoredPass? {
        try await writer.write { db in
            var current: StoredPass?
            try db.query("SELECT \(Self.passColumns) FROM passes WHERE pass_type_id = ? AND serial_number = ?",
                         [.text(passTypeIdentifier), .text(serialNumber)]) { current = Self.pass($0) }
            guard var pass = current else { return nil }
            if pass.personalizationJSON != nil { return pass }
            pass.personalizationJSON = personalizationJSON
            pass.updateTag = try Self.nextTag(db)
            pass.updatedAt = StoredPass.nextUpdateDate(after: pass.updatedAt)
            try db.query("UPDATE passes SET personalization = ?, update_tag = ?, updated_at = ? WHERE pass_type_id = ? AND serial_number = ?",
                         [.text(personalizationJSON), .integer(pass.updateTag), .integer(Int64(pass.updatedAt.timeIntervalSince1970)),
                          .text(passTypeIdentifier), .text(serialNumber)])
            return pass
        }
    }

    public func register(deviceLibraryIdentifier: String, pushToken: String, passTypeIdentifier: String, serialNumber: String) async throws -> RegistrationResult {
        try await writer.write { db in
            try db.query("INSERT INTO devices (device_library_id, push_token) VALUES (?, ?) ON CONFLICT (device_library_id) DO UPDATE SET push_token = excluded.push_token WHERE push_token <> excluded.push_token",
                         [.text(deviceLibraryIdentifier), .text(pushToken)])
            try db.query("INSERT OR IGNORE INTO registrations (device_library_id, pass_type_id, serial_number) VALUES (?, ?, ?)",
                         [.text(deviceLibraryIdentifier), .text(passTypeIdentifier), .text(serialNumber)])
            return db.changes > 0 ? .created : .alreadyRegistered
        }
    }

    public func unregister(deviceLibraryIdentifier: String, passTypeIdentifier: String, serialNumber: String) async throws -> Bool {
        try await writer.write { db in
            try db.query("DELETE FROM registrations WHERE device_library_id = ? AND pass_type_id = ? AND serial_number = ?",
                         [.text(deviceLibraryIdentifier), .text(passTypeIdentifier), .text(serialNumber)])
            let removed = db.changes > 0
            try db.query("DELETE FROM devices WHERE device_library_id = ? AND NOT EXISTS (SELECT 1 FROM registrations WHERE device_library_id = ?)",
                         [.text(deviceLibraryIdentifier), .text(deviceLibraryIdentifier)])
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

    public func updatedSerials(deviceLibraryIdentifier: String, passTypeIdentifier: String, updatedSince: Int64?) async throws -> UpdatedSerials {
        try read { db in
            var serials: [String] = []
            var last: Int64 = updatedSince ?? 0
            try db.query(Self.updatedSerialsQuery, [.text(deviceLibraryIdentifier), .text(passTypeIdentifier), .integer(updatedSince ?? -1)]) { row in
                serials.append(row.text(0) ?? "")
                last = max(last, row.integer(1))
            }
            return UpdatedSerials(serialNumbers: serials, lastUpdated: last)
        }
    }

    public func registrations(passTypeIdentifier: String, serialNumber: String) async throws -> [DeviceRegistration] {
        try read { db in
            var found: [DeviceRegistration] = []
            try db.query("""
                SELECT d.device_library_id, d.push_token FROM registrations r JOIN devices d ON d.device_library_id = r.device_library_id
                WHERE r.pass_type_id = ? AND r.serial_number = ? ORDER BY d.device_library_id
                """, [.text(passTypeIdentifier), .text(serialNumber)]) {
                found.append(DeviceRegistration(deviceLibraryIdentifier: $0.text(0) ?? "", pushToken: $0.text(1) ?? ""))
            }
            return found
        }
    }

    public func removeDevices(pushToken: String) async throws {
        try await writer.write { db in
            try db.query("DELETE FROM registrations WHERE device_library_id IN (SELECT device_library_id FROM devices WHERE push_token = ?)", [.text(pushToken)])
            try db.query("DELETE FROM devices WHERE push_token = ?", [.text(pushToken)])
        }
    }

    public func delete(passTypeIdentifier: String, serialNumber: String) async throws -> Bool {
        try await writer.write { db in
            let owners = "SELECT device_library_id FROM registrations WHERE pass_type_id = ? AND serial_number = ?"
            let key: [SQLiteConnection.Value] = [.text(passTypeIdentifier), .text(serialNumber)]
            var devices: [String] = []
            try db.query(owners, key) { devices.append($0.text(0) ?? "") }
            try db.query("DELETE FROM registrations WHERE pass_type_id = ? AND serial_number = ?", key)
            for device in devices {
                try db.query("DELETE FROM devices WHERE device_library_id = ? AND NOT EXISTS (SELECT 1 FROM registrations WHERE device_library_id = ?)",
                             [.text(device), .text(device)])
            }
            try db.query("DELETE FROM passes WHERE pass_type_id = ? AND serial_number = ?", key)
            return db.changes > 0
        }
    }

    public func pushToken(deviceLibraryIdentifier: String) async throws -> String? {
        try read { db in
            var token: String?
            try db.query("SELECT push_token FROM devices WHERE device_library_id = ?", [.text(deviceLibraryIdentifier)]) { token = $0.text(0) }
            return token
        }
    }

    public func recordPush(passTypeIdentifier: String, serialNumber: String, resultJSON: String) async throws {
        try await writer.write { db in
            try db.query("UPDATE passes SET last_push = ? WHERE pass_type_id = ? AND serial_number = ?",
                         [.text(resultJSON), .text(passTypeIdentifier), .text(serialNumber)])
        }
    }
}

/// Runs write closures on one connection on a dedicated thread, committing every closure waiting at the start of a
/// transaction in that one transaction (group commit). Each closure runs in its own savepoint, so one failing does
/// not undo the others; callers return only after the commit.
///
/// The same thread watches for commits made by other processes (`passmint batch --register` writing into the file
/// of a running service): every ``externalCheckInterval`` it reads SQLite's `PRAGMA data_version`, which moves only
/// when another connection committed, and bumps ``generation`` when it moved, so cached reads never outlive such a
/// change by more than that interval.
final class GroupCommitWriter: @unchecked Sendable {
    // @unchecked: `connection` is touched only by the writer thread; `pending` only under `condition`.
    private struct Job {
        /// Runs the work; returns what to do after the commit (or after a failed commit), nil when it already failed.
        var run: (SQLiteConnection) -> (committed: () -> Void, failed: (any Error) -> Void)?
        var cancel: (any Error) -> Void
    }

    /// What the writer thread owns; the thread keeps it alive and ends when the writer is released.
    private final class State: @unchecked Sendable {
        let connection: SQLiteConnection
        let condition = NSCondition()
        var pending: [Job] = []
        var stopped = false
        /// Bumped after each commit, before any writer of that commit is answered, and when another process committed.
        let generation = Atomic<UInt64>(0)
        /// SQLite's `data_version` of the writer connection when last read (changes only with other connections' commits).
        var dataVersion: Int64?
        var lastExternalCheck = ContinuousClock.now
        init(connection: SQLiteConnection) { self.connection = connection }
    }

    private let state: State

    /// Bumped after each commit, before the writers in it return: a read that starts after a write returned sees a
    /// different value than one that started before it.
    var generation: UInt64 { state.generation.load(ordering: .acquiring) }

    init(connection: SQLiteConnection) {
        let state = State(connection: connection)
        self.state = state
        let thread = Thread { GroupCommitWriter.loop(state) }
        thread.name = "passmint-sqlite-writer"
        thread.start()
    }

    deinit {
        state.condition.lock()
        state.stopped = true
        state.condition.signal()
        state.condition.unlock()
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let job = Job(
                run: { db in
                    do {
                        try db.execute("SAVEPOINT job")
                    } catch {
                        continuation.resume(throwing: error)
                        return nil
                    }
                    do {
                        let value = try body(db)
                        try db.execute("RELEASE job")
                        return (committed: { continuation.resume(returning: value) }, failed: { continuation.resume(throwing: $0) })
                    } catch {
                        try? db.execute("ROLLBACK TO job; RELEASE job")
                        continuation.resume(throwing: error)
                        return nil
                    }
                },
                cancel: { continuation.resume(throwing: $0) })
            state.condition.lock()
            state.pending.append(job)
            state.condition.signal()
            state.condition.unlock()
        }
    }

    /// How often the writer thread looks for other processes' commits (seconds).
    static let externalCheckInterval = 0.05

    /// Bumps the generation when another connection (another process) committed since the last look.
    private static func noticeExternalCommits(_ state: State) {
        state.lastExternalCheck = .now
        var version: Int64?
        try? state.connection.query("PRAGMA data_version") { version = $0.integer(0) }
        guard let version else { return }
        if let previous = state.dataVersion, previous != version { state.generation.add(1, ordering: .releasing) }
        state.dataVersion = version
    }

    private static func loop(_ state: State) {
        let connection = state.connection
        noticeExternalCommits(state)
        while true {
            state.condition.lock()
            while state.pending.isEmpty && !state.stopped {
                if !state.condition.wait(until: Date(timeIntervalSinceNow: externalCheckInterval)) { break }
            }
            if state.pending.isEmpty && state.stopped {
                state.condition.unlock()
                return
            }
            let jobs = state.pending
            state.pending.removeAll()
            state.condition.unlock()
            if state.lastExternalCheck.duration(to: .now) >= .seconds(externalCheckInterval) { noticeExternalCommits(state) }
            if jobs.isEmpty { continue }

            do {
                try connection.execute("BEGIN IMMEDIATE")
            } catch {
                for job in jobs { job.cancel(error) }
                continue
            }
            let outcomes = jobs.compactMap { $0.run(connection) }
            do {
                try connection.execute("COMMIT")
                state.generation.add(1, ordering: .releasing)
                for outcome in outcomes { outcome.committed() }
            } catch {
                try? connection.execute("ROLLBACK")
                state.generation.add(1, ordering: .releasing)
                for outcome in outcomes { outcome.failed(error) }
            }
        }
    }
}
