import Hummingbird
import NIOCore
import Passmint
import PassmintStore

/// Apple's pass web service (v1), mounted under the path of the public URL: devices register, poll, download, leave,
/// sign up and report. Each handler reads the request, calls a service of the ``ServiceCore`` and writes the answer.
struct AppleWebServiceRoutes {
    let core: ServiceCore

    func register(on router: Router<ServiceRequestContext>) {
        let apple = router.group(RouterPath(core.configuration.pathPrefix + "/v1"))
        apple.post("devices/:device/registrations/:type/:serial") { request, context in try await registerDevice(request, context) }
        apple.getAndHead("devices/:device/registrations/:type") { request, context in try await updatedSerials(request, context) }
        apple.delete("devices/:device/registrations/:type/:serial") { request, context in try await unregisterDevice(request, context) }
        apple.getAndHead("passes/:type/:serial") { request, context in try await latestPass(request, context) }
        apple.post("passes/:type/:serial/personalize") { request, context in try await personalize(request, context) }
        apple.post("log") { request, context in try await log(request, context) }
        orders.register(on: apple)
    }

    /// The order web service, on the registration paths it shares with passes when the type is an order type.
    private var orders: AppleOrderRoutes { AppleOrderRoutes(core: core) }

    private var bodyLimit: Int { core.configuration.maxBodySize }

    /// The pass, when the request carries its token. A 401 never says whether the serial exists.
    private func authorizedPass(_ request: Request, type: String, serial: String) async throws -> DevicePassView {
        let view = try await core.deviceReads.devicePass(passTypeIdentifier: type, serialNumber: serial)
        guard DeviceAnswers.authorizes(request.headers[.authorization], view), let view else { throw ServiceFailure.unauthorized() }
        return view
    }

    private func registerDevice(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let device = try RouteSupport.component("device", context)
        let type = try RouteSupport.component("type", context)
        let serial = try RouteSupport.component("serial", context)
        if OrderDeviceService.isOrderType(type) { return try await orders.registerDevice(request, device: device, type: type, id: serial) }
        _ = try await authorizedPass(request, type: type, serial: serial)
        let object = try await RouteSupport.jsonObject(request, limit: bodyLimit)
        guard let pushToken = object["pushToken"]?.stringValue, PathComponent.isValid(pushToken) else {
            throw ServiceFailure.badRequest("the body must be {\"pushToken\": \"<hex token>\"}")
        }
        let result = try await core.registrations.register(
            device: device, pushToken: pushToken, passTypeIdentifier: type, serialNumber: serial)
        return Response(status: result == .created ? .created : .ok)
    }

    private func updatedSerials(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let device = try RouteSupport.component("device", context)
        let type = try RouteSupport.component("type", context)
        if OrderDeviceService.isOrderType(type) { return try await orders.updatedOrders(request, device: device, type: type) }
        let sinceText = request.uri.queryParameters.get("passesUpdatedSince").map { Substring($0) }
        guard case .success(let since) = DeviceAnswers.since(sinceText) else {
            throw ServiceFailure.badRequest("passesUpdatedSince must be a tag this service returned")
        }
        let answer = DeviceAnswers.poll(try await core.deviceReads.updatedSerials(device: device, passTypeIdentifier: type, since: since))
        guard let body = answer.body else { return Response(status: answer.status) }
        return Response(status: answer.status, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
    }

    private func unregisterDevice(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let device = try RouteSupport.component("device", context)
        let type = try RouteSupport.component("type", context)
        let serial = try RouteSupport.component("serial", context)
        if OrderDeviceService.isOrderType(type) {
            return try await orders.unregisterDevice(request, device: device, type: type, id: serial)
        }
        _ = try await authorizedPass(request, type: type, serial: serial)
        try await core.registrations.unregister(device: device, passTypeIdentifier: type, serialNumber: serial)
        return Response(status: .ok)
    }

    private func latestPass(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let type = try RouteSupport.component("type", context)
        let serial = try RouteSupport.component("serial", context)
        let view = try await authorizedPass(request, type: type, serial: serial)
        if DeviceAnswers.notModified(view, ifModifiedSince: request.headers[.ifModifiedSince]) {
            // No Content-Length: a 304 may carry only the length the 200 would have (RFC 9110 §8.6), not the 0 of its empty body.
            var response = Response(status: .notModified, headers: [.lastModified: view.lastModified])
            response.headers[.contentLength] = nil
            return response
        }
        let bytes = try await core.downloads.deviceFetch(view.pass)
        return RouteSupport.bytes(bytes, type: BuiltPass.mimeType, headers: [.lastModified: view.lastModified])
    }

    /// Rewards enrollment (Apple's “Return a Personalized Pass”; the Passmint article “The update web service
    /// protocol”). Apple documents no Authorization header here; when one is sent it must match.
    private func personalize(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let type = try RouteSupport.component("type", context)
        let serial = try RouteSupport.component("serial", context)
        if request.headers[.authorization] != nil { _ = try await authorizedPass(request, type: type, serial: serial) }
        let object = try await RouteSupport.jsonObject(request, limit: bodyLimit)
        guard let token = object["personalizationToken"]?.stringValue else {
            throw ServiceFailure.badRequest("the body must be {\"personalizationToken\": \"…\", \"requiredPersonalizationInfo\": {…}}")
        }
        guard let infoObject = (object["requiredPersonalizationInfo"] ?? .object(JSONObject())).objectValue else {
            throw ServiceFailure.badRequest("requiredPersonalizationInfo must be an object")
        }
        let info: PersonalizationInfo
        do {
            info = try PersonalizationInfo(json: infoObject)
        } catch {
            throw ServiceFailure.badRequest(error.message)
        }
        let personalized = try await core.personalization.personalize(
            passTypeIdentifier: type, serialNumber: serial, token: token, info: info)
        return RouteSupport.bytes(personalized.signature, type: "application/octet-stream")
    }

    private func log(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let object = try await RouteSupport.jsonObject(request, limit: bodyLimit)
        guard let logs = object["logs"]?.arrayValue else { throw ServiceFailure.badRequest("the body must be {\"logs\": [\"…\"]}") }
        let client = ClientAddress.resolve(
            peer: context.clientAddress, headers: request.headers, trusted: core.configuration.trustedProxies)
        core.deviceLogs.record(logs.compactMap(\.stringValue), client: client)
        return Response(status: .ok)
    }
}
