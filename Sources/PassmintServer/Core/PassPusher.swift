import Passmint
public import PassmintPush
public import PassmintStore
import Synchronization

/// Tells the devices registered for a pass that it changed: one push per distinct push token, concurrently (the
/// `PushSender` bounds it), then one write that keeps the outcome with the pass and drops the registrations of the
/// tokens APNs says are gone. Every outcome is counted for the operator (``statistics``).
public final class PassPusher: Sendable {
    let sender: any PushSender
    let store: any PassStore
    private let counts = Mutex(PushStatistics())

    public init(sender: any PushSender, store: any PassStore) {
        self.sender = sender
        self.store = store
    }

    /// Pushes `change` to the devices registered when it committed (`PassChange.registrations`).
    func push(_ change: PassChange) async throws -> PushSummary {
        let pass = change.pass
        let tokens = Array(Set(change.registrations.map(\.pushToken))).sorted()
        let summary = PushSummary(outcomes: await sender.push(topic: pass.passTypeIdentifier, pushTokens: tokens))
        counts.withLock { $0.count(summary.outcomes) }
        try await store.recordPush(
            passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber,
            resultJSON: JSONWriter.string(summary.json, style: .compact), unregisteredPushTokens: summary.unregisteredPushTokens)
        return summary
    }

    /// Every push outcome since the service started, counted (`GET /api/v1/stats`).
    public var statistics: PushStatistics { counts.withLock { $0 } }
}
