import Foundation

/// A webhook's deliveries on SQLite, listed newest first and replayed (`/api/v1/webhooks/{id}/deliveries`).
extension SQLitePassStore {
    public func webhookDeliveries(webhookId: String, limit: Int, before: Int64?) async throws -> [WebhookDeliveryRecord] {
        try read { db in
            var found: [WebhookDeliveryRecord] = []
            try db.query(
                """
                SELECT id, event_id, kind, pass_type_id, serial_number, template, at, device_hash, change_at, attempts, due_at,
                    delivered_at, failed_at, last_error
                FROM webhook_deliveries WHERE webhook_id = ? AND id < ? ORDER BY id DESC LIMIT ?
                """, [.text(webhookId), .integer(before ?? Int64.max), .integer(Int64(limit))]
            ) { row in
                guard let kind = PassEventKind(rawValue: row.text(2) ?? "") else { return }
                let event = PassEvent(
                    kind: kind, passTypeIdentifier: row.text(3) ?? "", serialNumber: row.text(4) ?? "", template: row.text(5) ?? "",
                    at: PassEvent.date(milliseconds: row.integer(6)), deviceHash: row.text(7),
                    changeAt: row.optionalInteger(8).map(PassEvent.date(milliseconds:)))
                found.append(
                    WebhookDeliveryRecord(
                        id: row.integer(0), eventId: row.text(1) ?? "", event: event, attempts: Int(row.integer(9)),
                        dueAt: PassEvent.date(milliseconds: row.integer(10)),
                        deliveredAt: row.optionalInteger(11).map(PassEvent.date(milliseconds:)),
                        failedAt: row.optionalInteger(12).map(PassEvent.date(milliseconds:)), lastError: row.text(13)))
            }
            return found
        }
    }

    public func replayWebhookDelivery(webhookId: String, id: Int64) async throws -> WebhookReplay {
        try await writer.write { db in
            try db.query(
                """
                UPDATE webhook_deliveries SET delivered_at = NULL, failed_at = NULL, due_at = ?, lease_until = 0, attempts = 0,
                    last_error = NULL
                WHERE id = ? AND webhook_id = ? AND (delivered_at IS NOT NULL OR failed_at IS NOT NULL)
                """, [.integer(PassEvent.milliseconds(self.clock())), .integer(id), .text(webhookId)])
            if db.changes > 0 { return .replayed }
            var owed = false
            try db.query("SELECT 1 FROM webhook_deliveries WHERE id = ? AND webhook_id = ?", [.integer(id), .text(webhookId)]) { _ in
                owed = true
            }
            return owed ? .stillOwed : .notFound
        }
    }
}
