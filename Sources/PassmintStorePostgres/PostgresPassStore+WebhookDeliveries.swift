import Foundation
public import PassmintStore
import PostgresNIO

/// A webhook's deliveries on PostgreSQL, listed newest first and replayed (`/api/v1/webhooks/{id}/deliveries`).
extension PostgresPassStore {
    public func webhookDeliveries(webhookId: String, limit: Int, before: Int64?) async throws -> [WebhookDeliveryRecord] {
        let rows = try await clients.query(
            """
            SELECT id, event_id, kind, pass_type_id, serial_number, template, at, device_hash, change_at, attempts, due_at,
                delivered_at, failed_at, last_error
            FROM webhook_deliveries WHERE webhook_id = \(webhookId) AND id < \(before ?? Int64.max) ORDER BY id DESC LIMIT \(limit)
            """, logger: logger)
        var found: [WebhookDeliveryRecord] = []
        for try await row in rows.decode(
            (Int64, String, String, String, String, String, Int64, String?, Int64?, Int32, Int64, Int64?, Int64?, String?).self)
        {
            guard let kind = PassEventKind(rawValue: row.2) else { continue }
            let event = PassEvent(
                kind: kind, passTypeIdentifier: row.3, serialNumber: row.4, template: row.5, at: PassEvent.date(milliseconds: row.6),
                deviceHash: row.7, changeAt: row.8.map(PassEvent.date(milliseconds:)))
            found.append(
                WebhookDeliveryRecord(
                    id: row.0, eventId: row.1, event: event, attempts: Int(row.9), dueAt: PassEvent.date(milliseconds: row.10),
                    deliveredAt: row.11.map(PassEvent.date(milliseconds:)), failedAt: row.12.map(PassEvent.date(milliseconds:)),
                    lastError: row.13))
        }
        return found
    }

    public func replayWebhookDelivery(webhookId: String, id: Int64) async throws -> WebhookReplay {
        try await write(notify: false) { connection in
            let now = PassEvent.milliseconds(clock())
            let replayed = try await connection.query(
                """
                UPDATE webhook_deliveries SET delivered_at = NULL, failed_at = NULL, due_at = \(now), lease_until = 0, attempts = 0,
                    last_error = NULL
                WHERE id = \(id) AND webhook_id = \(webhookId) AND (delivered_at IS NOT NULL OR failed_at IS NOT NULL)
                RETURNING 1
                """, logger: logger)
            for try await _ in replayed { return .replayed }
            let owed = try await connection.query(
                "SELECT 1 FROM webhook_deliveries WHERE id = \(id) AND webhook_id = \(webhookId)", logger: logger)
            for try await _ in owed { return .stillOwed }
            return .notFound
        }
    }
}
