import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs `query` and counts the rows it answers: with `RETURNING 1`, the rows an INSERT, UPDATE or DELETE wrote.
    func rowCount(_ query: PostgresQuery, logger: Logger) async throws -> Int {
        var count = 0
        for try await _ in try await self.query(query, logger: logger) { count += 1 }
        return count
    }
}
