import Foundation
import PassmintStore
public import PassmintStorePostgres

/// Where the store lives, read once from the database setting (`--database-url`, `PASSMINT_DATABASE_URL`,
/// `batch --register`): a `postgres://` (or `postgresql://`) URL is PostgreSQL, anything else the path of a SQLite file
/// (`postgres-data.sqlite` included).
public enum DatabaseLocation: Sendable {
    case sqlite(path: String)
    case postgres(PostgresURL)

    /// Reads `text`, refusing an empty one and SQLite's databases in memory (each connection would get its own private
    /// database: a node would answer 201 and keep nothing), and a PostgreSQL URL ``PostgresURL`` refuses.
    public init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty || trimmed == ":memory:" || trimmed.hasPrefix("file::memory:") || trimmed.contains("mode=memory") {
            throw PassStoreError(
                .database,
                "the database URL is \(trimmed.isEmpty ? "empty" : "\"\(trimmed)\", a database in memory that keeps nothing"): "
                    + "give a SQLite file path or a postgres://user@host:port/db URL (--database-url or PASSMINT_DATABASE_URL; "
                    + "is the variable set to an empty value?)")
        }
        self = text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") ? .postgres(try PostgresURL(text)) : .sqlite(path: text)
    }

    /// Whether it is a PostgreSQL URL carrying a password, which `ps` shows to every user of the machine while a command
    /// given it runs.
    public var hasPassword: Bool {
        if case .postgres(let url) = self { url.hasPassword } else { false }
    }

    /// What to call it in logs: the SQLite file, or `postgres <host>:<port> sslmode=<mode>` (never the URL, which may
    /// hold a password).
    public var name: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): "postgres \(url.place) sslmode=\(url.sslMode.rawValue)"
        }
    }

    /// Where bulk changes keep their uploads when no folder is given: beside the SQLite file, or `passmint-jobs` in the
    /// working folder with PostgreSQL.
    var defaultJobsFolder: String {
        switch self {
        case .sqlite(let path): path + ".jobs"
        case .postgres: "passmint-jobs"
        }
    }
}
