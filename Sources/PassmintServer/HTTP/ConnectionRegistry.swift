import Logging
import NIOCore
import Synchronization

/// The service's open connections, shared by every event loop: it counts them, knows which are waiting for their
/// next request (idle) and since when, makes room beyond ``ConnectionLimits/maximumConnections`` by closing the
/// connection idle longest, and logs what it closed (at most once every 10 s, with counts).
final class ConnectionRegistry: Sendable {
    /// What the registry did to a connection, for the log.
    enum Action: CaseIterable {
        /// Closed to make room for a new connection: it had waited longest for its next request.
        case evicted
        /// Refused: at the limit with every connection busy with a request.
        case refused
        /// Closed because its request head did not arrive within the header timeout.
        case headerTimedOut
    }

    private struct State {
        var open = 0
        /// Idle connections by identifier, with the sequence number they became idle at.
        var idle: [ObjectIdentifier: (channel: any Channel, sequence: UInt64)] = [:]
        /// Idle connections in the order they became idle; entries whose sequence no longer matches are stale.
        var order: [(id: ObjectIdentifier, sequence: UInt64)] = []
        var orderStart = 0
        var sequence: UInt64 = 0
        var counts: [Action: Int] = [:]
        var lastLog: ContinuousClock.Instant?
    }

    let limits: ConnectionLimits
    private let logger: Logger
    private let state = Mutex(State())

    init(limits: ConnectionLimits, logger: Logger) {
        self.limits = limits
        self.logger = logger
    }

    /// How many connections are open.
    var openConnections: Int { state.withLock { $0.open } }

    /// A connection opened. False when it must be closed at once (at the limit, nothing idle to close instead).
    func opened() -> Bool {
        let (accepted, victim) = state.withLock { state -> (Bool, (any Channel)?) in
            state.open += 1
            guard state.open > limits.maximumConnections else { return (true, nil) }
            if let oldest = Self.popOldestIdle(&state) {
                state.counts[.evicted, default: 0] += 1
                return (true, oldest)
            }
            state.open -= 1
            state.counts[.refused, default: 0] += 1
            return (false, nil)
        }
        victim?.close(promise: nil)
        logIfDue()
        return accepted
    }

    /// A connection closed (one that ``opened()`` accepted).
    func closed(_ id: ObjectIdentifier) {
        state.withLock { state in
            state.open -= 1
            state.idle[id] = nil
        }
    }

    /// The connection waits for its next request.
    func idle(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLock { state in
            state.sequence += 1
            state.idle[id] = (channel, state.sequence)
            state.order.append((id, state.sequence))
            // Stale entries (connections that became busy, or closed) are dropped once they outnumber the idle ones.
            if state.order.count - state.orderStart > 2 * state.idle.count + 1024 {
                state.order = state.idle.map { ($0.key, $0.value.sequence) }.sorted { $0.sequence < $1.sequence }
                state.orderStart = 0
            }
        }
    }

    /// The connection is busy with a request.
    func busy(_ id: ObjectIdentifier) {
        state.withLock { state in _ = state.idle.removeValue(forKey: id) }
    }

    /// Counts an action taken by a connection's own handler (a header timeout) for the log.
    func record(_ action: Action) {
        state.withLock { $0.counts[action, default: 0] += 1 }
        logIfDue()
    }

    private static func popOldestIdle(_ state: inout State) -> (any Channel)? {
        while state.orderStart < state.order.count {
            let entry = state.order[state.orderStart]
            state.orderStart += 1
            if let idle = state.idle[entry.id], idle.sequence == entry.sequence {
                state.idle[entry.id] = nil
                compact(&state)
                return idle.channel
            }
        }
        compact(&state)
        return nil
    }

    /// Drops the consumed front of the order once it is most of the array.
    private static func compact(_ state: inout State) {
        if state.orderStart > 1024, state.orderStart * 2 > state.order.count {
            state.order.removeFirst(state.orderStart)
            state.orderStart = 0
        }
    }

    /// Logs the counts of what was closed since the last log, at most once every 10 s.
    private func logIfDue() {
        let now = ContinuousClock.now
        let due = state.withLock { state -> ([Action: Int], Int)? in
            guard !state.counts.isEmpty, state.lastLog.map({ now - $0 >= .seconds(10) }) ?? true else { return nil }
            defer {
                state.counts = [:]
                state.lastLog = now
            }
            return (state.counts, state.open)
        }
        guard let (counts, open) = due else { return }
        logger.notice(
            "connection limits acted",
            metadata: [
                "evicted_idle": "\(counts[.evicted] ?? 0)", "refused": "\(counts[.refused] ?? 0)",
                "header_timeouts": "\(counts[.headerTimedOut] ?? 0)", "open": "\(open)",
                "max_connections": "\(limits.maximumConnections)",
            ])
    }
}
