import Foundation
import HTTPTypes
package import PassmintStore

/// Registers, lists and removes webhooks (`/api/v1/webhooks`): checks the receiver's URL (`WebhookAddress`), the
/// events named and the secret, or makes one.
package struct WebhookService: Sendable {
    let store: any PassStore
    let policy: WebhookPolicy
    let clock: @Sendable () -> Date

    /// Registers a webhook; its secret (given or made) is in the answer, and never shown again.
    package func create(url: String, events: [String], secret: String?) async throws(ServiceFailure) -> Webhook {
        _ = try await WebhookAddress.check(url, policy: policy)
        guard !events.isEmpty else { throw .badRequest("\"events\" is empty: name at least one of \(Self.kindList)") }
        var kinds: [PassEventKind] = []
        for (index, name) in events.enumerated() {
            guard let kind = PassEventKind(rawValue: name) else {
                throw .badRequest("\"events\"[\(index)]: \(name) is not an event: give some of \(Self.kindList)")
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        if let secret, secret.utf8.count < 16 || secret.utf8.count > 200 {
            throw .badRequest("\"secret\" must have 16 to 200 characters (or leave it out: one is made and shown once)")
        }
        let webhook = Webhook(
            id: "wh_" + randomHex(12), url: url, events: kinds, secret: secret ?? "whsec_" + randomHex(24), createdAt: clock())
        let added: Bool
        do {
            added = try await store.addWebhook(webhook, maximum: policy.maximumWebhooks)
        } catch {
            throw .storage("the webhook could not be stored: \(error)")
        }
        guard added else {
            throw .conflict(
                "there are \(policy.maximumWebhooks) webhooks already, the most a service keeps (each event is owed to each in "
                    + "the transaction that writes it): remove one (DELETE /api/v1/webhooks/{id}), or subscribe one receiver to more events"
            )
        }
        return webhook
    }

    /// Every webhook (their secrets are not shown).
    package func list() async throws(ServiceFailure) -> [Webhook] {
        do { return try await store.webhooks() } catch { throw .storage("the webhooks could not be read: \(error)") }
    }

    /// The deliveries owed to every webhook (for `/metrics`).
    package func queueStatus() async throws -> OutboxStatus {
        try await store.outboxStatus(.webhook)
    }

    /// Removes a webhook and what is still owed to it; `.notFound` when there is none.
    package func remove(id: String) async throws(ServiceFailure) {
        let removed: Bool
        do { removed = try await store.removeWebhook(id: id) } catch { throw .storage("the webhook could not be removed: \(error)") }
        guard removed else { throw ServiceFailure(.notFound, "no webhook \(id): GET /api/v1/webhooks lists them") }
    }

    static var kindList: String { PassEventKind.allCases.map(\.rawValue).joined(separator: ", ") }
}
