/// One of the store's durable outboxes, as both stores keep it: rows owed in the transaction of the change that owes
/// them, due at a time, claimed with a lease (`lease_until`) and settled by the kind's worker. Apple pushes and Google
/// object patches are coalesced per key (a `generation` bumped by each change that owes the row again); webhook
/// deliveries are one row an event, kept as history once delivered or given up. Table and column names are the
/// store's own constants.
package struct Outbox: Sendable {
    /// The table.
    package var table: String
    /// The two columns of a coalesced row's key.
    package var keys: (String, String)
    /// The column dating a row for the status (when the oldest owed one was owed).
    package var since: String
    /// Which rows are owed (SQL).
    package var owed: String

    /// Pushes owed to a device token for a pass type (`push_outbox`).
    package static let applePush = Outbox(table: "push_outbox", keys: ("push_token", "pass_type_id"), since: "enqueued_at", owed: "TRUE")
    /// Patches owed to a pass's Google Wallet object (`google_outbox`).
    package static let googleObject = Outbox(
        table: "google_outbox", keys: ("pass_type_id", "serial_number"), since: "enqueued_at", owed: "TRUE")
    /// Events owed to webhooks (`webhook_deliveries`), dated by their event.
    package static let webhook = Outbox(
        table: "webhook_deliveries", keys: ("webhook_id", "event_id"), since: "at", owed: "delivered_at IS NULL AND failed_at IS NULL")
}

extension Duration {
    /// Whole milliseconds (leases and due times are kept in milliseconds).
    package var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
