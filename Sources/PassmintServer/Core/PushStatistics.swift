import PassmintPush

/// Push outcomes counted since the service started, for the operator (`GET /api/v1/stats`) and monitoring.
package struct PushStatistics: Sendable, Equatable {
    /// Rounds of the push queue that sent pushes (a round sends every push due, coalesced, for many changes).
    package var updates = 0
    /// Pushes sent, one per push token and pass type in a round.
    package var devices = 0
    /// APNs answered 200.
    package var delivered = 0
    /// APNs said the token is gone (410 `Unregistered`, 400 `BadDeviceToken`); the registration was removed.
    package var unregistered = 0
    /// Every other outcome, after the retries.
    package var failed = 0
    /// HTTP/2 requests made, retries included.
    package var attempts = 0

    package init() {}

    mutating func count(_ outcomes: [PushOutcome]) {
        updates += 1
        devices += outcomes.count
        for outcome in outcomes {
            attempts += outcome.attempts
            switch outcome.result {
            case .delivered: delivered += 1
            case .unregistered: unregistered += 1
            case .failed: failed += 1
            }
        }
    }
}
