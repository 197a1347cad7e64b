public import Foundation
public import Passmint
public import PassmintPush

/// The outcome of pushing one change to a pass's devices, as the issuing API shows it (`push`) and the store keeps it
/// (`lastPush`): made once, written as JSON text once.
public struct PushSummary: Sendable {
    public let outcomes: [PushOutcome]
    /// `{"at", "devices", "delivered", "unregistered", "failed", "results": [{"status", "result", "reason", "attempts"}]}`.
    public let json: JSONValue

    public init(outcomes: [PushOutcome], at date: Date = Date()) {
        self.outcomes = outcomes
        func count(_ result: PushOutcome.Result) -> JSONValue { .number(JSONNumber(outcomes.filter { $0.result == result }.count)) }
        let results: [JSONValue] = outcomes.map {
            [
                "status": .number(JSONNumber($0.status)), "result": .string($0.result.rawValue),
                "reason": $0.reason.map(JSONValue.string) ?? .null, "attempts": .number(JSONNumber($0.attempts)),
            ]
        }
        json = [
            "at": .string(ISO8601DateFormatter().string(from: date)), "devices": .number(JSONNumber(outcomes.count)),
            "delivered": count(.delivered), "unregistered": count(.unregistered), "failed": count(.failed), "results": .array(results),
        ]
    }

    /// Devices that took the push.
    public var delivered: Int { outcomes.filter { $0.result == .delivered }.count }

    /// The push tokens APNs says are gone: their registrations go.
    public var unregisteredPushTokens: [String] { outcomes.filter { $0.result == .unregistered }.map(\.pushToken) }
}
