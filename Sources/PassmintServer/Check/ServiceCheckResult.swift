package import Passmint

/// One check of `passmint check-service`: the rule (its stable id, described in docs/check-service.md), what was sent,
/// what came back and, when it failed, how to fix the service.
package struct ServiceCheckResult: Sendable {
    /// The rule's id, e.g. `register.created`.
    package var id: String
    package var status: VerificationReport.Status
    /// What the rule asks, or why it was skipped.
    package var detail: String
    /// The request, e.g. `POST …/v1/devices/…/registrations/pass.x/123 (ApplePass <token>) {"pushToken": …}`.
    package var sent: String
    /// The answer, e.g. `200 application/json {"serialNumbers":…}`.
    package var received: String
    /// What to change in the service when the check failed; empty otherwise.
    package var fix: String

    package init(id: String, status: VerificationReport.Status, detail: String, sent: String = "", received: String = "", fix: String = "")
    {
        self.id = id
        self.status = status
        self.detail = detail
        self.sent = sent
        self.received = received
        self.fix = fix
    }

    package var json: JSONValue {
        var object: JSONObject = ["id": .string(id), "status": .string(status.rawValue), "detail": .string(detail)]
        if !sent.isEmpty { object["sent"] = .string(sent) }
        if !received.isEmpty { object["received"] = .string(received) }
        if status == .failed { object["fix"] = .string(fix) }
        return .object(object)
    }

    /// `ok   register.created: …` and, for a failure, what was sent, what came back and the fix on lines of their own.
    package var lines: [String] {
        var lines = ["\(status.mark) \(id): \(detail)"]
        if status == .failed {
            if !sent.isEmpty { lines.append("     sent:     \(sent)") }
            if !received.isEmpty { lines.append("     received: \(received)") }
            lines.append("     fix:      \(fix)")
        }
        return lines
    }
}

/// Every result of a run, and the times of the calls it made.
package struct ServiceCheckReport: Sendable {
    package var target: ServiceCheckTarget
    package var results: [ServiceCheckResult] = []
    /// Each call's durations in seconds, by call name (`poll`, `latest`, …), in the order first made.
    package var timings: [(call: String, seconds: [Double])] = []

    package init(target: ServiceCheckTarget) { self.target = target }

    /// True when no check failed.
    package var passed: Bool { !results.contains { $0.status == .failed } }

    /// The ids of the checks that failed.
    package var failedIDs: Set<String> { Set(results.filter { $0.status == .failed }.map(\.id)) }

    mutating func add(_ result: ServiceCheckResult) { results.append(result) }

    mutating func time(_ call: String, _ seconds: Double) {
        if let index = timings.firstIndex(where: { $0.call == call }) {
            timings[index].seconds.append(seconds)
        } else {
            timings.append((call, [seconds]))
        }
    }

    /// The `q` quantile (0…1) of `seconds`, nearest rank.
    static func quantile(_ seconds: [Double], _ q: Double) -> Double {
        let sorted = seconds.sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// `poll: 20 calls, p50 3.1 ms, p99 7.9 ms`, one line a call.
    package var timingLines: [String] {
        timings.map { call, seconds in
            func ms(_ value: Double) -> String { String(Double(Int(value * 10_000)) / 10) + " ms" }
            return "\(call): \(seconds.count) call(s), p50 \(ms(Self.quantile(seconds, 0.5))), p99 \(ms(Self.quantile(seconds, 0.99)))"
        }
    }

    package var json: JSONValue {
        let calls = timings.map { call, seconds -> JSONValue in
            [
                "call": .string(call), "count": .number(JSONNumber(seconds.count)),
                "p50Milliseconds": .number(JSONNumber(Self.quantile(seconds, 0.5) * 1000)),
                "p99Milliseconds": .number(JSONNumber(Self.quantile(seconds, 0.99) * 1000)),
            ]
        }
        return [
            "kind": .string(target.kind.rawValue), "serviceURL": .string(target.serviceURL),
            "typeIdentifier": .string(target.typeIdentifier), "identifier": .string(target.identifier),
            "passed": .bool(passed), "checks": .array(results.map(\.json)), "timings": .array(calls),
        ]
    }
}
