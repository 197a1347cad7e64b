public import Foundation

/// One delivery as `GET /api/v1/webhooks/{id}/deliveries` shows it: the event, where it stands and what went wrong.
public struct WebhookDeliveryRecord: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Owed: waiting for its time, or on its way.
        case pending
        /// The receiver answered 2xx.
        case delivered
        /// Given up after the retry window; a replay owes it again.
        case failed
    }

    /// The row; a replay names it.
    public var id: Int64
    /// `Passmint-Event-Id`, the same on every attempt and replay.
    public var eventId: String
    public var event: PassEvent
    public var state: State
    /// Failed attempts so far.
    public var attempts: Int
    /// When a pending delivery is tried next.
    public var dueAt: Date
    public var deliveredAt: Date?
    public var failedAt: Date?
    /// The last attempt's failure, if any.
    public var lastError: String?

    public init(
        id: Int64, eventId: String, event: PassEvent, attempts: Int, dueAt: Date, deliveredAt: Date?, failedAt: Date?,
        lastError: String?
    ) {
        self.id = id
        self.eventId = eventId
        self.event = event
        self.state = deliveredAt != nil ? .delivered : failedAt != nil ? .failed : .pending
        self.attempts = attempts
        self.dueAt = dueAt
        self.deliveredAt = deliveredAt
        self.failedAt = failedAt
        self.lastError = lastError
    }
}

/// What asking to deliver an event again did.
public enum WebhookReplay: Sendable, Equatable {
    /// Owed again from now, with its event id; it goes out once every earlier delivery of its pass to that webhook is
    /// settled.
    case replayed
    /// Still owed (not yet delivered or given up): nothing to replay.
    case stillOwed
    /// No such delivery for that webhook (or it was pruned with its event).
    case notFound
}
