import Logging
import NIOCore
import Synchronization

/// One open connection as the ``ConnectionRegistry`` sees it: since when it waits for its next request (in
/// nanoseconds of `NIODeadline.now()`), or 0 while it has a request; and, while a request's body is arriving, when its
/// last part came (0 otherwise). Its ``ConnectionGuard`` updates them with relaxed atomic stores, so the registry costs
/// requests nothing.
final class ConnectionState: Sendable {
    let channel: any Channel
    /// The client's IP address (nil when unknown), counted against ``ConnectionLimits/maximumConnectionsPerAddress``.
    let address: String?
    let waitingSince = Atomic<Int64>(0)
    let bodySince = Atomic<Int64>(0)

    init(channel: any Channel, address: String?) {
        self.channel = channel
        self.address = address
    }

    /// Since when the connection could be closed without cutting work short: its wait for a request, or the last
    /// part of a body still arriving; 0 while a request is being answered.
    var idleSince: Int64 {
        let waiting = waitingSince.load(ordering: .relaxed)
        return waiting != 0 ? waiting : bodySince.load(ordering: .relaxed)
    }
}

/// The service's open connections, shared by every event loop: it counts them and, beyond
/// ``ConnectionLimits/maximumConnections``, makes room by closing one that waits for a request or for the rest of a
/// body — the longest idle of 64 picked at random (every connection, when none of those is), as Redis picks keys to
/// evict — and logs what it closed (at most once every 10 s, with counts). It refuses a connection from an address
/// that has ``ConnectionLimits/maximumConnectionsPerAddress`` open already (unless it is a trusted proxy's). Opening
/// and closing a connection cost O(1).
final class ConnectionRegistry: Sendable {
    /// What the registry did to a connection, for the log.
    enum Action: CaseIterable {
        /// Closed to make room for a new connection: it waited for its next request.
        case evicted
        /// Refused: at the limit with every connection busy with a request.
        case refused
        /// Closed because its request head did not arrive within the header timeout.
        case headerTimedOut
        /// Closed because its request body did not arrive within the body timeout.
        case bodyTimedOut
        /// Refused: its address had as many connections open as one address may.
        case refusedForAddress
    }

    private struct State {
        var connections: [ConnectionState] = []
        var slots: [ObjectIdentifier: Int] = [:]
        var perAddress: [String: Int] = [:]
        var counts: [Action: Int] = [:]
        var lastLog: ContinuousClock.Instant?

        mutating func remove(_ id: ObjectIdentifier) {
            guard let slot = slots.removeValue(forKey: id) else { return }
            if let address = connections[slot].address {
                let left = (perAddress[address] ?? 1) - 1
                perAddress[address] = left > 0 ? left : nil
            }
            let last = connections.removeLast()
            if slot < connections.count {
                connections[slot] = last
                slots[ObjectIdentifier(last.channel)] = slot
            }
        }
    }

    let limits: ConnectionLimits
    /// Addresses without a per-address cap: the trusted proxies.
    let uncapped: [IPNetwork]
    private let logger: Logger
    private let state = Mutex(State())
    static let sample = 64

    init(limits: ConnectionLimits, uncapped: [IPNetwork] = [], logger: Logger) {
        self.limits = limits
        self.uncapped = uncapped
        self.logger = logger
    }

    /// A connection opened; nil when it must be closed at once (at the limit, and no connection waits for a request).
    func opened(_ channel: any Channel) -> ConnectionState? {
        let address = channel.remoteAddress?.ipAddress
        let capped = address.map { address in !uncapped.contains { $0.contains(address) } } ?? false
        let connection = ConnectionState(channel: channel, address: capped ? address : nil)
        let (accepted, victim) = state.withLock { state -> (Bool, (any Channel)?) in
            var victim: (any Channel)?
            if let address = connection.address, state.perAddress[address, default: 0] >= limits.maximumConnectionsPerAddress {
                state.counts[.refusedForAddress, default: 0] += 1
                return (false, nil)
            }
            if state.connections.count >= limits.maximumConnections {
                guard let oldest = Self.oldestWaiting(state.connections) else {
                    state.counts[.refused, default: 0] += 1
                    return (false, nil)
                }
                victim = oldest.channel
                state.remove(ObjectIdentifier(oldest.channel))
                state.counts[.evicted, default: 0] += 1
            }
            state.slots[ObjectIdentifier(channel)] = state.connections.count
            state.connections.append(connection)
            if let address = connection.address { state.perAddress[address, default: 0] += 1 }
            return (true, victim)
        }
        victim?.close(promise: nil)
        if !accepted || victim != nil { logIfDue() }
        return accepted ? connection : nil
    }

    /// A connection closed.
    func closed(_ channel: any Channel) {
        state.withLock { $0.remove(ObjectIdentifier(channel)) }
    }

    /// Counts an action taken by a connection's own handler (a header or body timeout) for the log.
    func record(_ action: Action) {
        state.withLock { $0.counts[action, default: 0] += 1 }
        logIfDue()
    }

    /// The connection idle longest (waiting for a request, or for the rest of a body) among a random sample, or among
    /// all when none in the sample is idle.
    private static func oldestWaiting(_ connections: [ConnectionState]) -> ConnectionState? {
        func oldest(_ candidates: some Sequence<ConnectionState>) -> ConnectionState? {
            var best: (ConnectionState, Int64)?
            for candidate in candidates {
                let since = candidate.idleSince
                if since != 0, best.map({ since < $0.1 }) ?? true { best = (candidate, since) }
            }
            return best?.0
        }
        guard connections.count > sample else { return oldest(connections) }
        let picked = (0..<sample).map { _ in connections[Int.random(in: 0..<connections.count)] }
        return oldest(picked) ?? oldest(connections)
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
            return (state.counts, state.connections.count)
        }
        guard let (counts, open) = due else { return }
        logger.notice(
            "connection limits acted",
            metadata: [
                "evicted_idle": "\(counts[.evicted] ?? 0)", "refused": "\(counts[.refused] ?? 0)",
                "header_timeouts": "\(counts[.headerTimedOut] ?? 0)", "body_timeouts": "\(counts[.bodyTimedOut] ?? 0)",
                "refused_per_address": "\(counts[.refusedForAddress] ?? 0)", "open": "\(open)",
                "max_connections": "\(limits.maximumConnections)",
            ])
    }
}
