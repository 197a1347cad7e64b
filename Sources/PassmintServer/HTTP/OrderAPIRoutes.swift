import Hummingbird
import Passmint
import PassmintStore

/// The issuing API's orders, under `/api/v1` behind ``APIKeyMiddleware``: issue an order, change it (its data merged,
/// `If-Match` as for passes), read it with where its pushes stand.
struct OrderAPIRoutes {
    let core: ServiceCore

    func register(on api: RouterGroup<ServiceRequestContext>) {
        api.post("orders") { request, context in try await issue(request, context) }
        api.patch("orders/:type/:id") { request, context in try await update(request, context) }
        api.getAndHead("orders/:type/:id") { request, context in try await metadata(request, context) }
    }

    private var bodyLimit: Int { core.configuration.maxBodySize }

    /// The order's metadata as JSON, with its version's `ETag` (its update tag, quoted, as for passes).
    private func answer(_ status: HTTPResponse.Status, _ metadata: PassMetadata) -> Response {
        let links = core.sharing.links(for: metadata.pass)
        var response = RouteSupport.json(
            status, .object(PassMetadataJSON.object(metadata, publicURL: core.configuration.publicURL, links: links)))
        response.headers[.eTag] = EntityTags.value(metadata.pass)
        return response
    }

    /// `{"template": "Shipment", "data": {…}}` → 201 with the signed `.order` (or its metadata with
    /// `Accept: application/json`).
    private func issue(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let object = try await RouteSupport.jsonObject(request, limit: bodyLimit)
        guard let template = object["template"]?.stringValue else { throw ServiceFailure.badRequest("give \"template\": \"<name>\"") }
        guard let data = (object["data"] ?? .object(JSONObject())).objectValue else {
            throw ServiceFailure.badRequest("\"data\" must be an object")
        }
        let issued = try await core.orders.issue(template: template, data: data)
        let order = issued.metadata.pass
        let location = "/api/v1/orders/\(order.passTypeIdentifier)/\(order.serialNumber)"
        if request.headers[.accept]?.contains("application/json") == true {
            var response = answer(.created, issued.metadata)
            response.headers[.location] = location
            return response
        }
        return RouteSupport.bytes(
            issued.archive, type: BuiltOrder.mimeType, headers: [.lastModified: HTTPDate.string(order.updatedAt), .location: location],
            status: .created)
    }

    /// `{"data": {…}}`: merged into the order's data (null removes a member).
    private func update(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let type = try RouteSupport.component("type", context)
        let id = try RouteSupport.component("id", context)
        let object = try await RouteSupport.jsonObject(request, limit: bodyLimit)
        guard let data = object["data"]?.objectValue else { throw ServiceFailure.badRequest("give {\"data\": {…}}") }
        let updated = try await core.orders.update(
            orderTypeIdentifier: type, orderIdentifier: id, data: data, ifMatch: EntityTags.ifMatch(request.headers))
        return answer(.ok, updated)
    }

    private func metadata(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let type = try RouteSupport.component("type", context)
        let id = try RouteSupport.component("id", context)
        return answer(.ok, try await core.orders.metadata(orderTypeIdentifier: type, orderIdentifier: id))
    }
}
