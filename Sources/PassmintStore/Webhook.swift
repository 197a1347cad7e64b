public import Foundation

/// A receiver of events (`POST /api/v1/webhooks`): every event of the kinds it wants is owed to it, in the event's
/// transaction (a `webhook_deliveries` row), until it answers 2xx.
public struct Webhook: Sendable, Equatable {
    /// `wh_` and 24 hex digits.
    public var id: String
    public var url: String
    public var events: [PassEventKind]
    /// The HMAC key of `Passmint-Signature`; shown once, when the webhook is made.
    public var secret: String
    public var createdAt: Date

    public init(id: String, url: String, events: [PassEventKind], secret: String, createdAt: Date) {
        self.id = id
        self.url = url
        self.events = events
        self.secret = secret
        self.createdAt = createdAt
    }

    /// The kinds as the store keeps them: `,installed,removed,` (a kind matches when `,<kind>,` is in it).
    package var storedEvents: String { "," + events.map(\.rawValue).joined(separator: ",") + "," }

    package static func events(stored: String) -> [PassEventKind] {
        stored.split(separator: ",").compactMap { PassEventKind(rawValue: String($0)) }
    }
}

/// One event owed to one webhook (the item of an ``Outbox/webhook`` row), claimed by a deliverer for a lease.
public struct WebhookDelivery: Sendable, Equatable {
    /// The row; settlements name it.
    public var id: Int64
    /// Unique per delivery and the same on every attempt (`Passmint-Event-Id`): receivers dedupe by it.
    public var eventId: String
    public var webhookId: String
    public var url: String
    public var secret: String
    public var event: PassEvent

    public init(id: Int64, eventId: String, webhookId: String, url: String, secret: String, event: PassEvent) {
        self.id = id
        self.eventId = eventId
        self.webhookId = webhookId
        self.url = url
        self.secret = secret
        self.event = event
    }
}

/// Where a webhook stores and owes its events. Both stores write the deliveries with a trigger on `pass_events`, so
/// whatever writes an event owes it to every webhook wanting its kind in the same transaction.
public protocol WebhookStore: Sendable {
    /// Adds a webhook unless `maximum` are registered already (counted in the adding transaction, so two nodes
    /// adding at once cannot pass it); false when full.
    func addWebhook(_ webhook: Webhook, maximum: Int) async throws -> Bool
    func webhooks() async throws -> [Webhook]
    /// Removes a webhook and what is still owed to it; false when there was none.
    func removeWebhook(id: String) async throws -> Bool
    /// Claims up to `limit` due deliveries for `lease`, oldest first, at most one per (webhook, pass) at a time and
    /// only when every earlier delivery of that pass to that webhook is settled (in order per pass).
    func claimWebhookDeliveries(limit: Int, lease: Duration) async throws -> [Owed<WebhookDelivery>]
    /// Writes what became of claimed deliveries, in one transaction: done ones are delivered, retried ones due again,
    /// given-up ones failed (kept, until replayed); each note is kept as the delivery's last error.
    func settleWebhookDeliveries(_ settlement: OutboxSettlement<WebhookDelivery>) async throws
    /// A webhook's deliveries, newest first: at most `limit`, with ids below `before` when given (the next page).
    func webhookDeliveries(webhookId: String, limit: Int, before: Int64?) async throws -> [WebhookDeliveryRecord]
    /// Owes a delivered or given-up delivery again, due now, attempts reset, same event id.
    func replayWebhookDelivery(webhookId: String, id: Int64) async throws -> WebhookReplay
}

extension WebhookStore {
    /// Adds a webhook, whatever the number registered.
    public func addWebhook(_ webhook: Webhook) async throws {
        _ = try await addWebhook(webhook, maximum: .max)
    }
}
