import Foundation
import PassmintStore
import Synchronization

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
    /// ``connectTimeout`` (the client keeps retrying a server that is down or unreachable). `body` reports the step it is
    /// at through its argument (``ConnectStep``), and the message names the step that did not finish: whether a
    /// connection of its own could not be opened, or the client's pool did not answer a first query.
    func withinConnectTimeout(_ body: @escaping @Sendable (ConnectStep) async throws -> Void) async throws {
        let timeout = connectTimeout
        let description = description
        let step = ConnectStep()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await body(step) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw PassStoreError(
                    .database,
                    """
                    cannot reach PostgreSQL at \(description) within \(timeout.components.seconds) s (still \(step.current)): is the \
                    server running there, and are the host and port of the database URL right? (a slower network or a busy \
                    server: add ?connect_timeout=30 to the URL)
                    """)
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }
}

/// The step a start-up's first contact with PostgreSQL is at, for the message of one that does not finish in time.
final class ConnectStep: Sendable {
    private let step = Mutex("connecting")

    /// What the start-up is waiting for, as the message says it ("connecting", ...).
    var current: String { step.withLock { $0 } }

    /// Records that the start-up now waits for `what`.
    func now(_ what: String) { step.withLock { $0 = what } }
}
