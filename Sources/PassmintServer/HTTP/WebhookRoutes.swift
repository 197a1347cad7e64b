import Foundation
import Hummingbird
import Passmint
import PassmintStore

/// `POST /api/v1/webhooks` (`{"url": …, "events": […], "secret": …}` → 201 with the webhook and its secret, shown
/// this once), `GET /api/v1/webhooks` (without secrets), `DELETE /api/v1/webhooks/{id}`,
/// `GET /api/v1/webhooks/{id}/deliveries?limit=&before=` and `POST /api/v1/webhooks/{id}/deliveries/{delivery}/replay`,
/// behind the API key (``WebhookService``).
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
        api.get("webhooks/:id/deliveries") { request, context in
            let query = request.uri.queryParameters
            let limit = try Self.number(query.get("limit"), name: "limit") ?? 100
            let before = try Self.number(query.get("before"), name: "before")
            let id = context.parameters.get("id") ?? ""
            let records = try await core.webhooks.deliveries(webhookId: id, limit: Int(limit), before: before)
            var answer: JSONObject = ["deliveries": .array(records.map { .object(WebhookDeliveryJSON.object($0)) })]
            if records.count == Int(limit), let last = records.last {
                answer["next"] = .string("/api/v1/webhooks/\(id)/deliveries?limit=\(limit)&before=\(last.id)")
            }
            return RouteSupport.json(.ok, .object(answer))
        }
        api.post("webhooks/:id/deliveries/:delivery/replay") { _, context in
            let text = context.parameters.get("delivery") ?? ""
            guard let delivery = Int64(text) else {
                throw ServiceFailure(.notFound, "\(text) is not a delivery id: GET …/deliveries lists them")
            }
            try await core.webhooks.replay(webhookId: context.parameters.get("id") ?? "", deliveryId: delivery)
            return Response(status: .accepted)
        }
    }

    /// A whole-number query parameter, or nil when absent.
    static func number(_ text: String?, name: String) throws(ServiceFailure) -> Int64? {
        guard let text else { return nil }
        guard let value = Int64(text), value >= 0 else { throw .badRequest("\(name)=\(text.prefix(40)): give a whole number") }
        return value
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
