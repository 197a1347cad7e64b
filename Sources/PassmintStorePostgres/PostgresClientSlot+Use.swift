public import Logging
public import PostgresNIO
import Synchronization

/// The store's way into the pool: each call counts what an operator watches on `/metrics` (``PostgresPoolUse``):
/// calls waiting for a connection, connections in use, and the time spent waiting.
extension PostgresClientSlot {
    /// `body` on a connection of the current client's pool.
    public func withConnection<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
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
        use.inUse(+1)
        defer { use.inUse(-1) }
        return try await current.query(query, logger: logger)
    }

    /// One prepared statement on a connection the pool lends for it.
    public func execute<Statement: PostgresPreparedStatement, Row>(
        _ statement: Statement, logger: Logger
    ) async throws -> AsyncThrowingMapSequence<PostgresRowSequence, Row> where Row == Statement.Row {
        use.inUse(+1)
        defer { use.inUse(-1) }
        return try await current.execute(statement, logger: logger)
    }
}

/// What the store's calls into the pool add up to, read at scrape time.
public final class PostgresPoolUse: Sendable {
    /// The most connections the pool opens.
    public let maximumConnections: Int
    private let waitingCount = Atomic<Int>(0)
    private let inUseCount = Atomic<Int>(0)
    private let leases = Atomic<Int>(0)
    private let waitedNanoseconds = Atomic<Int>(0)

    init(maximumConnections: Int) { self.maximumConnections = maximumConnections }

    /// Calls waiting for a connection now.
    public var waiting: Int { waitingCount.load(ordering: .relaxed) }
    /// Connections a call holds now.
    public var inUse: Int { inUseCount.load(ordering: .relaxed) }
    /// Connections lent so far, and the seconds their calls waited for them in all.
    public var leased: (count: Int, waitedSeconds: Double) {
        (leases.load(ordering: .relaxed), Double(waitedNanoseconds.load(ordering: .relaxed)) / 1e9)
    }

    func waiting(_ change: Int) { waitingCount.add(change, ordering: .relaxed) }
    func inUse(_ change: Int) { inUseCount.add(change, ordering: .relaxed) }
    func leased(after waited: Duration) {
        waitingCount.subtract(1, ordering: .relaxed)
        inUseCount.add(1, ordering: .relaxed)
        leases.add(1, ordering: .relaxed)
        waitedNanoseconds.add(
            Int(waited.components.seconds) * 1_000_000_000 + Int(waited.components.attoseconds / 1_000_000_000), ordering: .relaxed)
    }
}
