import Foundation
public import Logging
import Synchronization

/// What devices report to `POST …/v1/log` (unauthenticated, by Apple's design): written to the service log and the
/// newest kept for the operator (`GET /api/v1/logs`). Each message is cut at 2,000 characters and its control
/// characters are escaped (`\n`, `\u{1B}` …), so a message can neither forge log lines nor send terminal escapes.
/// At most `rate` messages a second are taken (bursts up to `burst`), whoever sends them; the rest are counted and
/// dropped, with one notice a second saying how many.
public final class DeviceLogBook: Sendable {
    private let kept = Mutex<[String]>([])
    private let budget: Mutex<(tokens: Double, refilled: ContinuousClock.Instant, dropped: Int, reported: ContinuousClock.Instant)>
    let limit: Int
    let rate: Double
    let burst: Double
    let logger: Logger

    public init(limit: Int, logger: Logger, rate: Double = 50, burst: Double = 200) {
        self.limit = limit
        self.logger = logger
        self.rate = rate
        self.burst = burst
        budget = Mutex((burst, .now, 0, .now))
    }

    func record(_ messages: [String]) {
        let (taken, dropped) = take(messages.count)
        let cut = messages.prefix(taken).map { Self.escaped(String($0.prefix(2000))) }
        for message in cut { logger.notice("device log", metadata: ["message": "\(message)"]) }
        if let dropped { logger.warning("device log messages dropped: more than the rate allowed", metadata: ["dropped": "\(dropped)"]) }
        kept.withLock { logs in
            logs.append(contentsOf: cut)
            if logs.count > limit { logs.removeFirst(logs.count - limit) }
        }
    }

    /// How many of `count` messages the budget takes now, and (at most once a second) how many were dropped since the
    /// last report.
    private func take(_ count: Int) -> (Int, Int?) {
        budget.withLock { budget in
            let now = ContinuousClock.now
            let elapsed = now - budget.refilled
            budget.tokens = min(
                burst, budget.tokens + rate * (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
            budget.refilled = now
            let taken = min(count, Int(budget.tokens))
            budget.tokens -= Double(taken)
            budget.dropped += count - taken
            guard budget.dropped > 0, now - budget.reported >= .seconds(1) else { return (taken, nil) }
            defer {
                budget.dropped = 0
                budget.reported = now
            }
            return (taken, budget.dropped)
        }
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
