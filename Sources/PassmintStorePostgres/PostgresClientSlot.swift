public import Logging
public import PostgresNIO
public import ServiceLifecycle
import Synchronization

/// The store's PostgreSQL client, which a new one can replace. A client's pool retries a failed connection with a
/// growing back-off (up to a minute), so after an outage it may wait long after the server is back; when the store's
/// own probe finds the server answering again, ``renew()`` puts a fresh client in its place at once and shuts the old
/// one down. Run it as a service: it runs the current client and each one that replaces it.
public final class PostgresClientSlot: Service, Sendable {
    private struct State {
        var current: PostgresClient
        /// The current client's run, and those of the clients it replaced (cancelled, awaited at the end).
        var running: [Task<Void, Never>] = []
        var started = false
        var stopped = false
        var failFast = false
    }
    private let state: Mutex<State>
    /// Makes a replacement; nil: this slot's client is never replaced (a client given from outside).
    private let make: (@Sendable () -> PostgresClient)?
    private let logger: Logger
    /// What the store's calls into the pool add up to.
    public let use: PostgresPoolUse

    /// A slot holding `client` (of at most `maximumConnections`); `make` (when given) makes each replacement.
    public init(
        _ client: PostgresClient, maximumConnections: Int = PostgresPassStore.maximumConnections, logger: Logger,
        make: (@Sendable () -> PostgresClient)? = nil
    ) {
        state = Mutex(State(current: client))
        self.make = make
        self.logger = logger
        use = PostgresPoolUse(maximumConnections: maximumConnections)
    }

    /// The client requests use now.
    public var current: PostgresClient { state.withLock { $0.current } }

    /// Puts a fresh client in place of the current one, when the slot runs and can make one: new requests use it at
    /// once, the old one ends (a request still on it fails as an outage's would). True when it did.
    @discardableResult
    public func renew() -> Bool {
        guard let make else { return false }
        let fresh = make()
        let retired = state.withLock { state -> Task<Void, Never>? in
            guard state.started, !state.stopped, let old = state.running.last else { return nil }
            state.current = fresh
            state.running.append(Task { await fresh.run() })
            return old
        }
        guard let retired else { return false }
        retired.cancel()
        logger.notice("new PostgreSQL connections: the pool of the outage is closed")
        return true
    }

    /// While `on`, the store's calls fail at once with ``PostgresOutage`` instead of waiting in the pool for a
    /// connection the outage will not give (the probe, on its own connection, turns it off when the server answers).
    public func failFast(_ on: Bool) { state.withLock { $0.failFast = on } }

    func refuseDuringOutage() throws(PostgresOutage) {
        if state.withLock({ $0.failFast }) { throw PostgresOutage() }
    }

    /// Runs the current client, and each that replaces it, until the service stops.
    public func run() async throws {
        let started = state.withLock { state -> Bool in
            guard !state.started else { return false }
            state.started = true
            let client = state.current
            state.running.append(Task { await client.run() })
            return true
        }
        guard started else { return }
        try? await gracefulShutdown()  // returns at graceful shutdown; throws when cancelled, which ends it too
        let running = state.withLock { state -> [Task<Void, Never>] in
            state.stopped = true
            return state.running
        }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }
}
