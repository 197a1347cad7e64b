public import Logging
import PassmintStore
public import PostgresNIO

/// The store's way into the pool: each call counts what an operator watches on `/metrics` (`StoreConnectionUse`):
/// calls waiting for a connection, connections in use, and the time spent waiting.
extension PostgresClientSlot {
    /// `body` on a connection of the current client's pool.
    public func withConnection<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        try refuseDuringOutage()
        let asked = ContinuousClock.now
        use.waiting(+1)
        var leased = false
        defer { leased ? use.inUse(-1) : use.waiting(-1) }
        return try await current.withConnection(isolation: isolation) { connection in
            use.leased(after: ContinuousClock.now - asked)
            leased = true
            return try await body(connection)
        }
    }

    /// `body` in a transaction on a connection of the current client's pool.
    public func withTransaction<Result>(
        logger: Logger, isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        try await withConnection(isolation: isolation) { connection in
            try await connection.withTransaction(logger: logger, isolation: isolation, body)
        }
    }

    /// One query on a connection the pool lends for it (counted in use until the query answers).
    @discardableResult
    public func query(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        try refuseDuringOutage()
        use.inUse(+1)
        defer { use.inUse(-1) }
        return try await current.query(query, logger: logger)
    }

    /// One prepared statement on a connection the pool lends for it.
    public func execute<Statement: PostgresPreparedStatement, Row>(
        _ statement: Statement, logger: Logger
    ) async throws -> AsyncThrowingMapSequence<PostgresRowSequence, Row> where Row == Statement.Row {
        try refuseDuringOutage()
        use.inUse(+1)
        defer { use.inUse(-1) }
        return try await current.execute(statement, logger: logger)
    }
}

/// A store call refused at once while the store's probe finds PostgreSQL out of reach (see
/// ``PostgresClientSlot/isReachable``): the service answers 503 for it, as for a dropped connection.
public struct PostgresOutage: Error, CustomStringConvertible {
    public var description: String { "PostgreSQL is out of reach (the node's probe cannot connect): not waiting for a connection" }
}
