public import Logging
public import PassmintStore
public import PostgresNIO
public import ServiceLifecycle
import Synchronization

/// The store's PostgreSQL client, which a new one can replace. A client's pool retries a failed connection with a
/// growing back-off (up to a minute), so after an outage it may wait long after the server is back; when the store's
/// own probe finds the server answering again, ``reachabilityChanged(reachable:)`` puts a fresh client in its place at
/// once and shuts the old one down. Run it as a service: it runs the current client and each one that replaces it.
public final class PostgresClientSlot: Service, Sendable {
    private struct State {
        var current: PostgresClient
        /// The current client's run, and those of the clients it replaced (cancelled, awaited at the end).
        var running: [Task<Void, Never>] = []
        var started = false
        var stopped = false
        /// What the store's probe last found (``isReachable``).
        var reachable = true
    }
    private let state: Mutex<State>
    /// Makes a replacement; nil: this slot's client is never replaced (a client given from outside).
    private let make: (@Sendable () -> PostgresClient)?
    private let logger: Logger
    /// What the store's calls into the pool add up to.
    public let use: StoreConnectionUse

    /// A slot holding `client` (of at most `maximumConnections`); `make` (when given) makes each replacement.
    public init(
        _ client: PostgresClient, maximumConnections: Int = PostgresPassStore.maximumConnections, logger: Logger,
        make: (@Sendable () -> PostgresClient)? = nil
    ) {
        state = Mutex(State(current: client))
        self.make = make
        self.logger = logger
        use = StoreConnectionUse(maximum: maximumConnections)
    }

    /// The client requests use now.
    public var current: PostgresClient { state.withLock { $0.current } }

    /// Whether the store's probe last found PostgreSQL answering: the one record of it (`/ready`, the service's 503s
    /// and its queues read it through ``PassStore/isReachable``). While it does not, the store's calls fail at once with
    /// ``PostgresOutage`` instead of waiting in the pool for a connection the outage will not give (the probe, on its
    /// own connection, finds when the server answers).
    public var isReachable: Bool { state.withLock { $0.reachable } }

    /// Records what the store's probe found; true when it changed. Back: a fresh client takes the current one's place
    /// (when the slot runs and can make one), so new requests use it at once and the old one ends (a request still on
    /// it fails as an outage's would).
    @discardableResult
    public func reachabilityChanged(reachable: Bool) -> Bool {
        guard isReachable != reachable else { return false }
        let fresh = reachable ? make?() : nil
        let (changed, retired) = state.withLock { state -> (Bool, Task<Void, Never>?) in
            guard state.reachable != reachable else { return (false, nil) }
            state.reachable = reachable
            guard let fresh, state.started, !state.stopped, let old = state.running.last else { return (true, nil) }
            state.current = fresh
            state.running.append(Task { await fresh.run() })
            return (true, old)
        }
        if let retired {
            retired.cancel()
            logger.notice("new PostgreSQL connections: the pool of the outage is closed")
        }
        return changed
    }

    func refuseDuringOutage() throws(PostgresOutage) {
        if !isReachable { throw PostgresOutage() }
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
        // A client ends once its connections are closed; a stop does not wait for one for ever (a request an outage's
        // dropped connection holds may never be failed), at most ``closingWait``.
        if await ShutdownWait.atMost(Self.closingWait, { for task in running { await task.value } }) == nil {
            logger.warning("PostgreSQL connections still open \(Self.closingWait) after the stop; not waiting for them any longer")
        }
    }

    /// How long a stop waits for its clients to close their connections.
    static let closingWait: Duration = .seconds(10)
}
