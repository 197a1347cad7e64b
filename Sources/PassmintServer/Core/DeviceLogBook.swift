import Foundation
package import Logging
import Passmint
import Synchronization

/// What devices report to `POST …/v1/log` (unauthenticated, by Apple's design): written to the service log and the
/// newest kept for the operator (`GET /api/v1/logs`). Each message is cut at 2,000 bytes of UTF-8 (on
/// a scalar boundary, however many combining marks a character has) and its control characters, line and paragraph
/// separators and bidirectional controls are escaped (`\n`, `\u{1B}`, `\u{202E}` …), so a message can neither forge
/// log lines, send terminal escapes, nor reorder what a reader sees.
/// Each client (by its address, see `ClientAddress`) may send `clientRate` messages a second (bursts up to
/// `clientBurst`), and all clients together `rate` (bursts up to `burst`), so one noisy client cannot use up what the
/// others may send. Beside that shared budget a reserve (a tenth of it) keeps room for devices that send little: a
/// client whose own budget is full (it sent nothing lately) may take one message a request from it when the shared
/// budget is spent, so a few heavy addresses cannot starve everyone else. The rest are counted and dropped, with one
/// notice a second saying how many.
package final class DeviceLogBook: Sendable {
    /// The rate budgets, with the drops not yet reported.
    private struct Budgets {
        var all: RateBudget
        var reserve: RateBudget
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
    /// The longest message kept, in bytes of UTF-8 (its escapes included).
    static let maximumMessageBytes = 2_000

    package init(
        limit: Int, logger: Logger, rate: Double = 50, burst: Double = 200, clientRate: Double = 5, clientBurst: Double = 20
    ) {
        self.limit = limit
        self.logger = logger
        self.clientRate = clientRate
        self.clientBurst = clientBurst
        budgets = Mutex(
            Budgets(
                all: RateBudget(rate: rate, burst: burst), reserve: RateBudget(rate: rate / 10, burst: max(1, (burst / 10).rounded())),
                reported: .now))
    }

    /// Records the messages a client sent, as far as its budget and everyone's allow. `client` is its address (nil
    /// when unknown: such clients share one budget).
    func record(_ messages: [String], client: String? = nil) {
        let (taken, dropped) = take(messages.count, client: client ?? Self.unremembered)
        let cut = messages.prefix(taken).map { LogBody.escaped($0, maximumBytes: Self.maximumMessageBytes) }
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
            let quiet = own.isFull(at: now)
            let allowed = own.take(count, now: now)
            var taken = budgets.all.take(allowed, now: now)
            if taken == 0, allowed > 0, quiet, key != Self.unremembered { taken = budgets.reserve.take(1, now: now) }
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

    /// The clients whose budgets are remembered, by the address they were budgeted by.
    var clientsBudgeted: Set<String> { budgets.withLock { Set($0.clients.keys) } }

    /// The messages kept, oldest first.
    package var recent: [String] { kept.withLock { $0 } }
}
