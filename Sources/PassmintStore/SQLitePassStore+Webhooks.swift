import Foundation

/// Webhooks on SQLite: deliveries are owed by the `pass_events_owe_webhooks` trigger (migration 6) in the event's
/// transaction, claimed for a lease and settled by the service's deliverer.
extension SQLitePassStore {
    public func addWebhook(_ webhook: Webhook, maximum: Int) async throws -> Bool {
        try await writer.write { db in
            var count = 0
            try db.query("SELECT COUNT(*) FROM webhooks") { count = Int($0.integer(0)) }
            guard count < maximum else { return false }
            try db.query(
                "INSERT INTO webhooks (id, url, events, secret, created_at) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(webhook.id), .text(webhook.url), .text(webhook.storedEvents), .text(webhook.secret),
                    .integer(PassEvent.milliseconds(webhook.createdAt)),
                ])
            return true
        }
    }

    public func webhooks() async throws -> [Webhook] {
        try read { db in
            var found: [Webhook] = []
            try db.query("SELECT id, url, events, secret, created_at FROM webhooks ORDER BY created_at, id") { row in
                found.append(
                    Webhook(
                        id: row.text(0) ?? "", url: row.text(1) ?? "", events: Webhook.events(stored: row.text(2) ?? ""),
                        secret: row.text(3) ?? "", createdAt: PassEvent.date(milliseconds: row.integer(4))))
            }
            return found
        }
    }

    public func removeWebhook(id: String) async throws -> Bool {
        try await writer.write { db in
            try db.query("DELETE FROM webhooks WHERE id = ?", [.text(id)])
            let removed = db.changes > 0
            try db.query("DELETE FROM webhook_deliveries WHERE webhook_id = ? AND delivered_at IS NULL AND failed_at IS NULL", [.text(id)])
            return removed
        }
    }

    public func claimWebhookDeliveries(limit: Int, lease: Duration) async throws -> [Owed<WebhookDelivery>] {
        guard try hasDue(.webhook) else { return [] }
        return try await writer.write { db in
            let now = PassEvent.milliseconds(self.clock())
            let until = now + lease.milliseconds
            var receivers: [String: (url: String, secret: String)] = [:]
            try db.query("SELECT id, url, secret FROM webhooks") { receivers[$0.text(0) ?? ""] = ($0.text(1) ?? "", $0.text(2) ?? "") }
            var claimed: [Owed<WebhookDelivery>] = []
            try db.query(
                Self.claimWebhookDeliveriesQuery, [.integer(until), .integer(now), .integer(now), .integer(Int64(limit))]
            ) { row in
                guard let kind = PassEventKind(rawValue: row.text(3) ?? ""), let receiver = receivers[row.text(2) ?? ""] else { return }
                let event = PassEvent(
                    kind: kind, passTypeIdentifier: row.text(4) ?? "", serialNumber: row.text(5) ?? "", template: row.text(6) ?? "",
                    at: PassEvent.date(milliseconds: row.integer(7)), deviceHash: row.text(8),
                    changeAt: row.optionalInteger(9).map(PassEvent.date(milliseconds:)))
                let delivery = WebhookDelivery(
                    id: row.integer(0), eventId: row.text(1) ?? "", webhookId: row.text(2) ?? "", url: receiver.url,
                    secret: receiver.secret, event: event)
                claimed.append(Owed(delivery, attempts: Int(row.integer(10)), enqueuedAt: event.at))
            }
            return claimed.sorted { $0.id < $1.id }
        }
    }

    /// Leases the first `?4` deliveries due at `?2` and not leased at `?3` (until `?1`), each only when no earlier one
    /// of its pass is still owed to that webhook. It walks the owed deliveries in order (`webhook_deliveries_owed_by_id`),
    /// not every delivery kept since the last prune: the table keeps what was delivered, for `GET …/deliveries`.
    static let claimWebhookDeliveriesQuery = """
        UPDATE webhook_deliveries SET lease_until = ? WHERE id IN (
            SELECT d.id FROM webhook_deliveries d WHERE d.delivered_at IS NULL AND d.failed_at IS NULL AND d.due_at <= ?
                AND d.lease_until <= ? AND NOT EXISTS (
                    SELECT 1 FROM webhook_deliveries e WHERE e.webhook_id = d.webhook_id AND e.pass_type_id = d.pass_type_id
                        AND e.serial_number = d.serial_number AND e.id < d.id AND e.delivered_at IS NULL AND e.failed_at IS NULL)
            ORDER BY d.id LIMIT ?)
        RETURNING id, event_id, webhook_id, kind, pass_type_id, serial_number, template, at, device_hash, change_at, attempts
        """

    public func settleWebhookDeliveries(_ settlement: OutboxSettlement<WebhookDelivery>) async throws {
        try await writer.write { db in
            let now = PassEvent.milliseconds(self.clock())
            for row in settlement.rows {
                let (column, time): (String, Int64) =
                    switch row.outcome {
                    case .done: ("delivered_at", now)
                    case .retry(let at): ("due_at", PassEvent.milliseconds(at))
                    case .givenUp: ("failed_at", now)
                    }
                try db.query(
                    """
                    UPDATE webhook_deliveries SET \(column) = ?, lease_until = 0, attempts = attempts + 1, last_error = ?
                    WHERE id = ? AND delivered_at IS NULL
                    """, [.integer(time), row.note.map { .text($0) } ?? .null, .integer(row.owed.id)])
            }
        }
    }
}
