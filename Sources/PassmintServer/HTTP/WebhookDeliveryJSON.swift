import Foundation
import Passmint
import PassmintStore

/// A delivery as `GET /api/v1/webhooks/{id}/deliveries` writes it.
enum WebhookDeliveryJSON {
    static func object(_ record: WebhookDeliveryRecord) -> JSONObject {
        var object: JSONObject = [
            "id": .number(JSONNumber(Int(record.id))), "eventId": .string(record.eventId), "type": .string(record.event.kind.rawValue),
            "passTypeIdentifier": .string(record.event.passTypeIdentifier), "serialNumber": .string(record.event.serialNumber),
            "template": .string(record.event.template), "createdAt": .string(date(record.event.at)),
            "state": .string(record.state.rawValue), "attempts": .number(JSONNumber(record.attempts)),
        ]
        switch record.state {
        case .pending: object["nextAttemptAt"] = .string(date(record.dueAt))
        case .delivered: object["deliveredAt"] = record.deliveredAt.map { .string(date($0)) }
        case .failed: object["failedAt"] = record.failedAt.map { .string(date($0)) }
        }
        if let error = record.lastError { object["lastError"] = .string(error) }
        return object
    }

    private static func date(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle()) }
}
