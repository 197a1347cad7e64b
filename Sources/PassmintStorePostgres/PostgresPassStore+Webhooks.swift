import Foundation
import Logging
public import PassmintStore
import PostgresNIO

/// Webhooks on PostgreSQL: deliveries are owed by the `pass_events_owe_webhooks` trigger (migration 6) in the event's
/// transaction; a claim takes due rows with `FOR UPDATE SKIP LOCKED` and leases them, so two nodes never deliver the
/// same row at once, and a node that dies holding a lease loses it when the lease ends.
extension PostgresPassStore {
    public func addWebhook(_ webhook: Webhook, maximum: Int) async throws -> Bool {
        try await write(notify: false) { connection in
            try await Self.lockWebhooks(connection, logger)
            var count = 0
            for try await registered in try await connection.query("SELECT COUNT(*) FROM webhooks", logger: logger).decode(Int.self) {
                count = registered
            }
            guard count < maximum else { return false }
            _ = try await connection.query(
                """
                INSERT INTO webhooks (id, url, events, secret, created_at)
                VALUES (\(webhook.id), \(webhook.url), \(webhook.storedEvents), \(webhook.secret), \(PassEvent.milliseconds(webhook.createdAt)))
                """, logger: logger)
            try await Self.switchWebhookTrigger(connection, logger)
            return true
        }
    }

    public func webhooks() async throws -> [Webhook] {
        let rows = try await clients.query(
            "SELECT id, url, events, secret, created_at FROM webhooks ORDER BY created_at, id", logger: logger)
        var found: [Webhook] = []
        for try await (id, url, events, secret, created) in rows.decode((String, String, String, String, Int64).self) {
            found.append(
                Webhook(
                    id: id, url: url, events: Webhook.events(stored: events), secret: secret,
                    createdAt: PassEvent.date(milliseconds: created)))
        }
        return found
    }

    public func removeWebhook(id: String) async throws -> Bool {
        try await write(notify: false) { connection in
            try await Self.lockWebhooks(connection, logger)
            let removed = try await connection.rowCount("DELETE FROM webhooks WHERE id = \(id) RETURNING 1", logger: logger) > 0
            try await Self.switchWebhookTrigger(connection, logger)
            try await connection.query(
                "DELETE FROM webhook_deliveries WHERE webhook_id = \(id) AND delivered_at IS NULL AND failed_at IS NULL", logger: logger)
            return removed
        }
    }

    /// Orders the changes to the webhooks, across nodes: each reads what is left after the one before it committed.
    static func lockWebhooks(_ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.query("LOCK TABLE webhooks IN SHARE ROW EXCLUSIVE MODE", logger: logger)
    }

    /// Turns the trigger that owes deliveries for each event on while a webhook exists and off when none does (a
    /// function call on every event written costs registrations a fifth of their rate). The switch takes a lock that
    /// waits for the transactions writing events and holds back new ones until it commits, so an event written
    /// after a webhook was added is owed to it.
    static func switchWebhookTrigger(_ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.query(
            """
            DO $$ BEGIN
                IF EXISTS (SELECT 1 FROM webhooks) THEN ALTER TABLE pass_events ENABLE TRIGGER pass_events_owe_webhooks;
                ELSE ALTER TABLE pass_events DISABLE TRIGGER pass_events_owe_webhooks; END IF;
            END $$
            """, logger: logger)
    }

    public func claimWebhookDeliveries(limit: Int, lease: Duration) async throws -> [Owed<WebhookDelivery>] {
        guard try await hasDue(.webhook) else { return [] }
        return try await claiming(lease: lease) { connection, now, until in
            let rows = try await connection.query(
                """
                UPDATE webhook_deliveries o SET lease_until = \(until) FROM (
                    SELECT d.id FROM webhook_deliveries d WHERE d.delivered_at IS NULL AND d.failed_at IS NULL AND d.due_at <= \(now)
                        AND d.lease_until <= \(now) AND NOT EXISTS (
                            SELECT 1 FROM webhook_deliveries e WHERE e.webhook_id = d.webhook_id AND e.pass_type_id = d.pass_type_id
                                AND e.serial_number = d.serial_number AND e.id < d.id AND e.delivered_at IS NULL AND e.failed_at IS NULL)
                    ORDER BY d.id LIMIT \(limit) FOR UPDATE SKIP LOCKED) c, webhooks w
                WHERE o.id = c.id AND w.id = o.webhook_id
                RETURNING o.id, o.event_id, o.webhook_id, w.url, w.secret, o.kind, o.pass_type_id, o.serial_number, o.template, o.at,
                    o.device_hash, o.change_at, o.attempts
                """, logger: logger)
            var claimed: [Owed<WebhookDelivery>] = []
            for try await row in rows.decode(
                (Int64, String, String, String, String, String, String, String, String, Int64, String?, Int64?, Int32).self)
            {
                guard let kind = PassEventKind(rawValue: row.5) else { continue }
                let event = PassEvent(
                    kind: kind, passTypeIdentifier: row.6, serialNumber: row.7, template: row.8, at: PassEvent.date(milliseconds: row.9),
                    deviceHash: row.10, changeAt: row.11.map(PassEvent.date(milliseconds:)))
                let delivery = WebhookDelivery(id: row.0, eventId: row.1, webhookId: row.2, url: row.3, secret: row.4, event: event)
                claimed.append(Owed(delivery, attempts: Int(row.12), enqueuedAt: event.at))
            }
            return claimed.sorted { $0.id < $1.id }
        }
    }

    /// Settles a round in one transaction: a statement for the delivered, the retried and the given-up, each with its
    /// time and error (none for the delivered).
    public func settleWebhookDeliveries(_ settlement: OutboxSettlement<WebhookDelivery>) async throws {
        try await write(notify: false) { connection in
            let now = PassEvent.milliseconds(clock())
            let groups: [(column: String, rows: [(id: Int64, time: Int64)])] = [
                ("delivered_at", settlement.done.map { ($0.id, now) }),
                ("due_at", settlement.retry.map { ($0.owed.id, PassEvent.milliseconds($0.at)) }),
                ("failed_at", settlement.givenUp.map { ($0.id, now) }),
            ]
            let errors = Dictionary(settlement.rows.compactMap { row in row.note.map { (row.owed.id, $0) } }) { $1 }
            for (column, rows) in groups where !rows.isEmpty {
                try await connection.query(
                    """
                    UPDATE webhook_deliveries o SET \(unescaped: column) = s.t, lease_until = 0, attempts = o.attempts + 1,
                        last_error = NULLIF(s.e, '')
                    FROM UNNEST(\(rows.map(\.id))::int8[], \(rows.map(\.time))::int8[], \(rows.map { errors[$0.id] ?? "" })::text[]) AS s(i, t, e)
                    WHERE o.id = s.i AND o.delivered_at IS NULL
                    """, logger: logger)
            }
        }
    }
}
