internal import CPassmintSQLite
import Foundation

/// A thin wrapper over one sqlite3 connection. Not thread-safe: its owner serialises use.
final class SQLiteConnection: @unchecked Sendable {  // used by one thread at a time: its owner serialises use
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]
    let path: String

    init(path: String, readOnly: Bool = false) throws {
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &db, flags, nil) == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close(db) }
            throw PassStoreError(.database, "cannot open the SQLite database \(path): \(message)")
        }
        handle = db
        self.path = path
        sqlite3_busy_timeout(db, 10_000)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close(handle)
    }

    private func error(_ context: String) -> PassStoreError {
        PassStoreError(.database, "SQLite (\(path)): \(context): \(String(cString: sqlite3_errmsg(handle)))")
    }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &message) != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw PassStoreError(.database, "SQLite (\(path)): \(text) in \(sql.prefix(60))")
        }
    }

    /// A value to bind.
    enum Value {
        case text(String)
        case integer(Int64)
        case blob([UInt8])
        case null
    }

    /// Runs a statement (cached by its SQL), calling `row` for each result row.
    func query(_ sql: String, _ values: [Value] = [], row: (Row) throws -> Void = { _ in }) throws {
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
        } else {
            var prepared: OpaquePointer?
            guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil) == SQLITE_OK, let prepared else {
                throw error("prepare")
            }
            statements[sql] = prepared
            statement = prepared
        }
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case .text(let text): sqlite3_bind_text(statement, position, text, -1, cpassmint_sqlite_transient())
            case .integer(let number): sqlite3_bind_int64(statement, position, number)
            case .blob(let bytes):
                bytes.withUnsafeBytes { raw in
                    _ = sqlite3_bind_blob(statement, position, raw.baseAddress, Int32(raw.count), cpassmint_sqlite_transient())
                }
            case .null: sqlite3_bind_null(statement, position)
            }
        }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else {
                if status == SQLITE_CONSTRAINT { throw PassStoreError(.duplicate, "already exists") }
                throw error("step")
            }
            try row(Row(statement: statement))
        }
    }

    var changes: Int { Int(sqlite3_changes(handle)) }

    struct Row {
        let statement: OpaquePointer
        func text(_ column: Int32) -> String? {
            guard let pointer = sqlite3_column_text(statement, column) else { return nil }
            return String(cString: pointer)
        }
        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        func optionalInteger(_ column: Int32) -> Int64? {
            sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, column)
        }
        func blob(_ column: Int32) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: pointer, count: count))
        }
    }
}
