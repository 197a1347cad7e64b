import Foundation
import HTTPTypes
package import PassmintStore

/// A webhook's deliveries (`GET /api/v1/webhooks/{id}/deliveries`) and replaying one
/// (`POST /api/v1/webhooks/{id}/deliveries/{delivery}/replay`).
extension WebhookService {
    /// The most deliveries one page lists.
    package static let deliveriesPageLimit = 500

    /// A webhook's deliveries, newest first; `.notFound` when there is no such webhook.
    package func deliveries(webhookId: String, limit: Int, before: Int64?) async throws(ServiceFailure) -> [WebhookDeliveryRecord] {
        try await requireWebhook(webhookId)
        guard (1...Self.deliveriesPageLimit).contains(limit) else {
            throw .badRequest("limit=\(limit): give a number of deliveries from 1 to \(Self.deliveriesPageLimit)")
        }
        do {
            return try await store.webhookDeliveries(webhookId: webhookId, limit: limit, before: before)
        } catch {
            throw .storage("the deliveries could not be read: \(error)")
        }
    }

    /// Owes a delivered or given-up delivery again, now, with its event id.
    package func replay(webhookId: String, deliveryId: Int64) async throws(ServiceFailure) {
        try await requireWebhook(webhookId)
        let outcome: WebhookReplay
        do {
            outcome = try await store.replayWebhookDelivery(webhookId: webhookId, id: deliveryId)
        } catch {
            throw .storage("the delivery could not be replayed: \(error)")
        }
        switch outcome {
        case .replayed: return
        case .stillOwed:
            throw .conflict("delivery \(deliveryId) is still owed: it goes out on its own; replay it once delivered or failed")
        case .notFound:
            throw ServiceFailure(
                .notFound, "webhook \(webhookId) has no delivery \(deliveryId): GET /api/v1/webhooks/\(webhookId)/deliveries lists them")
        }
    }

    private func requireWebhook(_ id: String) async throws(ServiceFailure) {
        let known: Bool
        do { known = try await store.webhooks().contains { $0.id == id } } catch {
            throw .storage("the webhooks could not be read: \(error)")
        }
        guard known else { throw ServiceFailure(.notFound, "no webhook \(id): GET /api/v1/webhooks lists them") }
    }
}
