import Foundation
import PassmintStore

/// Where a PostgreSQL store connects, for messages (`db.example.com:5432`, never the password), and how long its first
/// query at start-up may wait for an answer: the URL's `connect_timeout` (seconds, as libpq reads it), 10 s by default.
public struct PostgresEndpoint: Sendable {
    public var description: String
    public var connectTimeout: Duration

    public init(description: String = "PostgreSQL", connectTimeout: Duration = .seconds(10)) {
        self.description = description
        self.connectTimeout = connectTimeout
    }

    /// Runs `body` (a first query), failing with a message naming the host and port when it has not finished within
    /// ``connectTimeout`` (the client keeps retrying a server that is down or unreachable).
    func withinConnectTimeout(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let timeout = connectTimeout
        let description = description
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw PassStoreError(
                    .database,
                    """
                    cannot reach PostgreSQL at \(description) within \(timeout.components.seconds) s: is the server running there, \
                    and are the host and port of the database URL right? (a slower network: add ?connect_timeout=30 to the URL)
                    """)
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }
}
