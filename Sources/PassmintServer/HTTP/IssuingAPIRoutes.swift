import Hummingbird
import Passmint
import PassmintStore

/// The issuing API for the issuer's own servers, under `/api/v1` behind ``APIKeyMiddleware``: issue a pass or a
/// multi-ticket order, update a pass, erase it (its personal data, for good), read its metadata, the device logs and the
/// statistics; and the same for Wallet orders under `orders/` (issue, change — data merged, `If-Match` as for passes —
/// and read with where its pushes stand).
struct IssuingAPIRoutes {
    let core: ServiceCore

    /// Adds the routes to `api`, the `/api/v1` group behind ``APIKeyMiddleware`` (``buildRouter(core:)``).
    func register(on api: RouterGroup<ServiceRequestContext>) {
        for (kind, path) in [(WalletWebService.Kind.pass, "passes/:type/:serial"), (.order, "orders/:type/:id")] {
            api.post(RouterPath(String(path.prefix { $0 != "/" }))) { request, context in try await issue(kind, request, context) }
            api.patch(RouterPath(path)) { request, context in try await update(kind, request, context) }
            api.getAndHead(RouterPath(path)) { request, context in try await metadata(kind, request, context) }
        }
        api.delete("passes/:type/:serial") { request, context in try await erase(request, context) }
        api.post("bundles") { request, context in try await issueBundle(request, context) }
        api.get("logs") { _, _ in RouteSupport.json(.ok, .array(core.deviceLogs.recent.map(JSONValue.string))) }
    }

    /// The type and identifier a document's path names (`:serial` for a pass, `:id` for an order).
    private static func key(_ kind: WalletWebService.Kind, _ context: ServiceRequestContext) throws -> (String, String) {
        (try RouteSupport.component("type", context), try RouteSupport.component(kind == .pass ? "serial" : "id", context))
    }

    private var bodyLimit: Int { core.configuration.maxBodySize }

    /// Whether the caller asks for the metadata (`Accept: application/json`) instead of the signed bytes.
    private static func wantsJSON(_ request: Request) -> Bool { request.headers[.accept]?.contains("application/json") == true }

    /// The pass's metadata as JSON, with its version's `ETag` (see ``EntityTags``); with `google`, its
    /// `googleSaveURL` when the service issues for Google Wallet (or `googleError` when Google could not be reached:
    /// the pass is stored all the same, and a later GET makes the link).
    private func metadataAnswer(_ status: HTTPResponse.Status, _ metadata: PassMetadata, google: Bool = false) async -> Response {
        var response = RouteSupport.json(status, .object(await metadataObject(metadata, google: google)))
        response.headers[.eTag] = EntityTags.value(metadata.pass)
        return response
    }

    /// The pass's metadata with its links, and with `google` its Google Wallet link (see ``metadataAnswer(_:_:google:)``).
    private func metadataObject(_ metadata: PassMetadata, google: Bool) async -> JSONObject {
        var object = PassMetadataJSON.object(
            metadata, publicURL: core.configuration.publicURL, links: core.sharing.links(for: metadata.pass))
        if google, metadata.pass.erasedAt == nil, let service = core.google {
            do {
                object["googleSaveURL"] = .string(try await service.saveURL(for: metadata.pass))
            } catch {
                object["googleError"] = .string("\(error)")  // GoogleWalletError: its message
            }
        }
        return object
    }

    /// `{"template": "Loyalty", "data": {…}, "images": {…}}` (an order: `{"template": "Shipment", "data": {…}}`) → 201
    /// with the signed `.pkpass` (`.order`), or its metadata with `Accept: application/json`.
    private func issue(_ kind: WalletWebService.Kind, _ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let object = try await RouteSupport.jsonObject(request, limit: bodyLimit)
        guard let template = object["template"]?.stringValue else { throw ServiceFailure.badRequest("give \"template\": \"<name>\"") }
        let issued: IssuingService.Issued
        if kind == .order {
            guard let data = (object["data"] ?? .object(JSONObject())).objectValue else {
                throw ServiceFailure.badRequest("\"data\" must be an object")
            }
            issued = try await core.issuing.issueOrder(template: template, data: data)
        } else {
            let images = object["images"]
            guard images == nil || images?.objectValue != nil else {
                throw ServiceFailure.badRequest("\"images\" must be an object: {\"thumbnail@2x\": \"<base64 PNG>\"}")
            }
            issued = try await core.issuing.issue(
                template: template, data: object["data"]?.objectValue ?? JSONObject(), images: images?.objectValue)
        }
        let location = "/api/v1/\(kind == .pass ? "passes" : "orders")/\(issued.pass.passTypeIdentifier)/\(issued.pass.serialNumber)"
        if Self.wantsJSON(request) {
            var response = await metadataAnswer(
                .created, PassMetadata(pass: issued.pass, data: issued.data, registrations: 0), google: kind == .pass)
            response.headers[.location] = location
            return response
        }
        return RouteSupport.bytes(
            issued.archive, type: kind.mimeType,
            headers: [.lastModified: HTTPDate.string(issued.pass.updatedAt), .location: location], status: .created)
    }

    /// A multi-ticket order: `{"passes": [{"template": …, "data": {…}, "images": {…}}, …]}` → 201 with a `.pkpasses`
    /// bundle, or with `Accept: application/json` `{"passes": [<each pass's metadata, as a single pass's>]}` (serial,
    /// token, links), in the order's order; all of it is stored or none.
    private func issueBundle(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let object = try await RouteSupport.jsonObject(request, limit: bodyLimit)
        guard let orders = object["passes"]?.arrayValue, !orders.isEmpty else {
            throw ServiceFailure.badRequest("give {\"passes\": [{\"template\": …, \"data\": {…}}, …]}")
        }
        guard orders.count <= PassBundle.maximumPasses else {
            throw ServiceFailure.badRequest("a bundle holds at most \(PassBundle.maximumPasses) passes; this order has \(orders.count)")
        }
        let parsed = try orders.enumerated().map { index, order in
            guard let template = order["template"]?.stringValue else {
                throw ServiceFailure.badRequest("passes[\(index)] has no \"template\"")
            }
            guard let data = (order["data"] ?? .object(JSONObject())).objectValue else {
                throw ServiceFailure.badRequest("passes[\(index)].data must be an object")
            }
            let images = order["images"]
            guard images == nil || images?.objectValue != nil else {
                throw ServiceFailure.badRequest("passes[\(index)].images must be an object: {\"thumbnail@2x\": \"<base64 PNG>\"}")
            }
            return IssuingService.Order(template: template, data: data, images: images?.objectValue)
        }
        let issued = try await core.issuing.issue(orders: parsed)
        if Self.wantsJSON(request) {
            var passes: [JSONValue] = []
            for pass in issued.passes {
                passes.append(.object(await metadataObject(PassMetadata(pass: pass.pass, data: pass.data, registrations: 0), google: true)))
            }
            return RouteSupport.json(.created, ["passes": .array(passes)])
        }
        return RouteSupport.bytes(issued.bundle, type: PassBundle.mimeType, status: .created)
    }

    /// `{"data": {…}, "images": {…}, "voided": true}` merged into the pass (an order: `{"data": {…}}`, null removes a
    /// member).
    private func update(_ kind: WalletWebService.Kind, _ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let (type, serial) = try Self.key(kind, context)
        let object = try await RouteSupport.jsonObject(request, limit: bodyLimit)
        if kind == .order {
            guard let data = object["data"]?.objectValue else { throw ServiceFailure.badRequest("give {\"data\": {…}}") }
            let updated = try await core.updates.update(
                .order, passTypeIdentifier: type, serialNumber: serial, data: data, voided: nil,
                ifMatch: EntityTags.ifMatch(request.headers))
            return await metadataAnswer(.ok, updated)
        }
        let data = object["data"]
        guard data == nil || data?.objectValue != nil else { throw ServiceFailure.badRequest("\"data\" must be an object") }
        let voided = object["voided"]
        guard voided == nil || voided?.boolValue != nil else { throw ServiceFailure.badRequest("\"voided\" must be true or false") }
        let images = object["images"]
        guard images == nil || images?.objectValue != nil else {
            throw ServiceFailure.badRequest("\"images\" must be an object: {\"thumbnail@2x\": \"<base64 PNG>\"}")
        }
        guard data != nil || voided != nil || images != nil else {
            throw ServiceFailure.badRequest("give {\"data\": {…}}, {\"images\": {…}} and/or {\"voided\": true}")
        }
        let unvoid = request.uri.queryParameters.get("unvoid")
        guard unvoid == nil || unvoid == "true" || unvoid == "false" else {
            throw ServiceFailure.badRequest("?unvoid must be true or false, not \"\(unvoid ?? "")\"")
        }
        let updated = try await core.updates.update(
            passTypeIdentifier: type, serialNumber: serial, data: data?.objectValue, voided: voided?.boolValue,
            images: images?.objectValue, ifMatch: EntityTags.ifMatch(request.headers), unvoid: unvoid == "true")
        return await metadataAnswer(.ok, updated)
    }

    /// `DELETE /api/v1/passes/{type}/{serial}`: the pass's personal data erased, for good (``UpdateService/erase``);
    /// 200 with its tombstone (`erasedAt`, `push` when this request erased it, `changed` false when it was erased
    /// already).
    private func erase(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let type = try RouteSupport.component("type", context)
        let serial = try RouteSupport.component("serial", context)
        let erased = try await core.updates.erase(
            passTypeIdentifier: type, serialNumber: serial, ifMatch: EntityTags.ifMatch(request.headers))
        return await metadataAnswer(.ok, erased)
    }

    private func metadata(_ kind: WalletWebService.Kind, _ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let (type, serial) = try Self.key(kind, context)
        let metadata = try await core.lookup.metadata(kind, passTypeIdentifier: type, serialNumber: serial)
        return await metadataAnswer(.ok, metadata, google: kind == .pass)
    }
}
