public import Foundation

/// One of the store's durable outboxes, as both stores keep it: rows owed in the transaction of the change that owes
/// them, due at a time, claimed with a lease (`lease_until`) and settled by the kind's worker. Apple pushes and Google
/// object patches are coalesced per key (a `generation` bumped by each change that owes the row again); webhook
/// deliveries are one row an event, kept as history once delivered or given up. Table and column names are the
/// store's own constants.
public struct Outbox: Sendable {
    /// The table.
    package var table: String
    /// The two columns of a coalesced row's key.
    package var keys: (String, String)
    /// The column dating a row for the status (when the oldest owed one was owed).
    package var since: String
    /// Which rows are owed (SQL).
    package var owed: String

    /// Pushes owed to a device token for a pass type (`push_outbox`): owed to every device registered for a pass that
    /// changed, coalesced per (push token, pass type), so several changes before the push goes out make one push.
    public static let applePush = Outbox(table: "push_outbox", keys: ("push_token", "pass_type_id"), since: "enqueued_at", owed: "TRUE")
    /// Patches owed to a pass's Google Wallet object (`google_outbox`): only for passes whose object Google holds
    /// (`google_objects`), coalesced per pass, so several changes before the patch goes out make one, to the latest.
    public static let googleObject = Outbox(
        table: "google_outbox", keys: ("pass_type_id", "serial_number"), since: "enqueued_at", owed: "TRUE")
    /// Events owed to webhooks (`webhook_deliveries`), dated by their event.
    public static let webhook = Outbox(
        table: "webhook_deliveries", keys: ("webhook_id", "event_id"), since: "at", owed: "delivered_at IS NULL AND failed_at IS NULL")
}

/// What an outbox owes, for metrics (`passmint_push_queue_*`, `passmint_google_update_queue_*`,
/// `passmint_webhook_queue_*`).
public struct OutboxStatus: Sendable, Equatable {
    /// Rows owed.
    public var depth: Int
    /// Of those, the ones due now (claimed by a worker or waiting for one); the rest wait for a retry after a failure.
    public var due: Int
    /// When the oldest owed row was owed; nil when nothing is.
    public var oldestEnqueuedAt: Date?

    public init(depth: Int, due: Int, oldestEnqueuedAt: Date?) {
        self.depth = depth
        self.due = due
        self.oldestEnqueuedAt = oldestEnqueuedAt
    }
}

extension Duration {
    /// Whole milliseconds (leases and due times are kept in milliseconds).
    package var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
