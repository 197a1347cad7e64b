import Foundation
import Hummingbird
import Passmint
import PassmintStore

/// `POST /api/v1/webhooks` (`{"url": …, "events": […], "secret": …}` → 201 with the webhook and its secret, shown
/// this once), `GET /api/v1/webhooks` (without secrets) and `DELETE /api/v1/webhooks/{id}`, behind the API key
/// (``WebhookService``).
struct WebhookRoutes {
    let core: ServiceCore

    /// Adds the routes to `api`, the `/api/v1` group behind ``APIKeyMiddleware`` (``buildRouter(core:)``).
    func register(on api: RouterGroup<ServiceRequestContext>) {
        api.post("webhooks") { request, _ in
            let object = try await RouteSupport.jsonObject(request, limit: core.configuration.maxBodySize)
            guard let url = object["url"]?.stringValue else { throw ServiceFailure.badRequest("give \"url\": \"https://…\"") }
            guard let events = object["events"]?.arrayValue, events.allSatisfy({ $0.stringValue != nil }) else {
                throw ServiceFailure.badRequest("give \"events\": [\"installed\", \"removed\", …] (some of \(WebhookService.kindList))")
            }
            let secret = object["secret"]
            guard secret == nil || secret?.stringValue != nil else { throw ServiceFailure.badRequest("\"secret\" must be a string") }
            let webhook = try await core.webhooks.create(url: url, events: events.compactMap(\.stringValue), secret: secret?.stringValue)
            return RouteSupport.json(.created, .object(Self.json(webhook, showingSecret: true)))
        }
        api.get("webhooks") { _, _ in
            RouteSupport.json(
                .ok, ["webhooks": .array(try await core.webhooks.list().map { .object(Self.json($0, showingSecret: false)) })])
        }
        api.delete("webhooks/:id") { _, context in
            try await core.webhooks.remove(id: context.parameters.get("id") ?? "")
            return Response(status: .noContent)
        }
    }

    static func json(_ webhook: Webhook, showingSecret: Bool) -> JSONObject {
        var object: JSONObject = [
            "id": .string(webhook.id), "url": .string(webhook.url), "events": .array(webhook.events.map { .string($0.rawValue) }),
            "createdAt": .string(webhook.createdAt.formatted(Date.ISO8601FormatStyle())),
        ]
        if showingSecret { object["secret"] = .string(webhook.secret) }
        return object
    }
}
