import Foundation
public import Logging
import Synchronization

/// What devices report to `POST …/v1/log` (unauthenticated, by Apple's design): written to the service log and the
/// newest kept for the operator (`GET /api/v1/logs`). Each message is cut at 2,000 characters and its control
/// characters are escaped (`\n`, `\u{1B}` …), so a message can neither forge log lines nor send terminal escapes.
/// Each client (by its address) may send `clientRate` messages a second (bursts up to `clientBurst`), and all clients
/// together `rate` (bursts up to `burst`), so one noisy client cannot use up what the others may send; the rest are
/// counted and dropped, with one notice a second saying how many.
public final class DeviceLogBook: Sendable {
    /// The rate budgets, with the drops not yet reported.
    private struct Budgets {
        var all: RateBudget
        var clients: [String: RateBudget] = [:]
        var dropped = 0
        var reported: ContinuousClock.Instant
    }

    private let kept = Mutex<[String]>([])
    private let budgets: Mutex<Budgets>
    let limit: Int
    let clientRate: Double
    let clientBurst: Double
    let logger: Logger
    /// Clients whose budget is remembered; beyond it, those whose budget refilled are forgotten first, then the
    /// new client shares one budget with every client not remembered.
    static let clientsRemembered = 4096
    static let unremembered = "(clients beyond the ones remembered)"

    public init(
        limit: Int, logger: Logger, rate: Double = 50, burst: Double = 200, clientRate: Double = 5, clientBurst: Double = 20
    ) {
        self.limit = limit
        self.logger = logger
        self.clientRate = clientRate
        self.clientBurst = clientBurst
        budgets = Mutex(Budgets(all: RateBudget(rate: rate, burst: burst), reported: .now))
    }

    /// Records the messages a client sent, as far as its budget and everyone's allow. `client` is its address (nil
    /// when unknown: such clients share one budget).
    func record(_ messages: [String], client: String? = nil) {
        let (taken, dropped) = take(messages.count, client: client ?? Self.unremembered)
        let cut = messages.prefix(taken).map { Self.escaped(String($0.prefix(2000))) }
        for message in cut { logger.notice("device log", metadata: ["message": "\(message)"]) }
        if let dropped { logger.warning("device log messages dropped: more than the rate allowed", metadata: ["dropped": "\(dropped)"]) }
        kept.withLock { logs in
            logs.append(contentsOf: cut)
            if logs.count > limit { logs.removeFirst(logs.count - limit) }
        }
    }

    /// How many of `count` messages the client's budget and everyone's take now, and (at most once a second) how many
    /// were dropped since the last report.
    private func take(_ count: Int, client: String) -> (Int, Int?) {
        budgets.withLock { budgets in
            let now = ContinuousClock.now
            let key = Self.remember(client, in: &budgets.clients, now: now)
            var own = budgets.clients[key] ?? RateBudget(rate: clientRate, burst: clientBurst, now: now)
            let allowed = own.take(count, now: now)
            let taken = budgets.all.take(allowed, now: now)
            own.giveBack(allowed - taken)
            budgets.clients[key] = own
            budgets.dropped += count - taken
            guard budgets.dropped > 0, now - budgets.reported >= .seconds(1) else { return (taken, nil) }
            defer {
                budgets.dropped = 0
                budgets.reported = now
            }
            return (taken, budgets.dropped)
        }
    }

    /// The key the client's budget is kept under: its own while there is room (made by forgetting refilled budgets),
    /// otherwise the budget every client not remembered shares.
    private static func remember(_ client: String, in clients: inout [String: RateBudget], now: ContinuousClock.Instant) -> String {
        guard clients[client] == nil, clients.count >= clientsRemembered else { return client }
        clients = clients.filter { !$0.value.isFull(at: now) }
        return clients.count >= clientsRemembered ? unremembered : client
    }

    /// Control characters (C0, DEL, C1) written as escapes: a line break shows as `\n`, ESC as `\u{1B}`.
    static func escaped(_ message: String) -> String {
        guard message.unicodeScalars.contains(where: isControl) else { return message }
        var output = ""
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where isControl(scalar): output += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The messages kept, oldest first.
    public var recent: [String] { kept.withLock { $0 } }
}
