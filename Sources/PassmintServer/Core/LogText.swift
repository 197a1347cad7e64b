import PassmintStorePostgres

/// How a log line names an error: what went wrong and why, never a source path or a query (PostgreSQL's errors
/// through ``PostgresPassStore/describe(_:)``, which otherwise log as "Generic description to prevent accidental
/// leakage of sensitive data").
enum LogText {
    static func error(_ error: any Error) -> String {
        PostgresPassStore.describe(error) ?? "\(error)"
    }
}
