import Hummingbird
import NIOCore
import Passmint
import PassmintStore

/// Apple's pass and order web services (v1), mounted under the path of the public URL: devices register, poll,
/// download, leave, sign up and report. The registration and poll paths are shared: a type beginning `order.` is an
/// order type (``WalletWebService/Kind``), answered with the order's token scheme and names; `orders/{type}/{id}` is
/// the order's latest version. Each handler reads the request, calls a service of the ``ServiceCore`` and writes the answer.
struct AppleWebServiceRoutes {
    let core: ServiceCore

    func register(on router: Router<ServiceRequestContext>) {
        let apple = router.group(RouterPath(core.configuration.pathPrefix + "/" + WalletWebService.version))
        func path(_ route: WalletRoute) -> RouterPath { RouterPath(route.template(.pass)) }
        apple.post(path(.register)) { request, context in try await registerDevice(request, context) }
        apple.getAndHead(path(.poll)) { request, context in try await updatedSerials(request, context) }
        apple.delete(path(.unregister)) { request, context in try await unregisterDevice(request, context) }
        apple.getAndHead(path(.latest)) { request, context in try await latest(.pass, request, context) }
        apple.getAndHead(RouterPath(WalletRoute.latest.template(.order))) { request, context in try await latest(.order, request, context) }
        apple.post(path(.personalize)) { request, context in try await personalize(request, context) }
        apple.post(path(.log)) { request, context in try await log(request, context) }
    }

    /// The order web service, on the registration paths it shares with passes when the type is an order type.
    private var bodyLimit: Int { core.configuration.maxBodySize }

    /// The pass (or order: `kind`), when the request carries its token in the kind's scheme. A 401 never says whether
    /// the serial exists.
    private func authorized(_ request: Request, _ kind: WalletWebService.Kind, type: String, serial: String) async throws -> DevicePassView
    {
        let view = try await core.deviceReads.devicePass(kind, passTypeIdentifier: type, serialNumber: serial)
        guard DeviceAnswers.authorizes(request.headers[.authorization], view, kind), let view else { throw ServiceFailure.unauthorized() }
        return view
    }

    private func registerDevice(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let device = try RouteSupport.component(WalletRoute.Parameter.device, context)
        let type = try RouteSupport.component(WalletRoute.Parameter.type, context)
        let serial = try RouteSupport.component(WalletRoute.Parameter.serial, context)
        _ = try await authorized(request, WalletWebService.Kind(typeIdentifier: type), type: type, serial: serial)
        let pushToken = try await RouteSupport.pushToken(request, limit: bodyLimit)
        let result = try await core.registrations.register(
            device: device, pushToken: pushToken, passTypeIdentifier: type, serialNumber: serial,
            counted: !core.selfCheckMark.marks(request.headers))
        return Response(status: RouteSupport.status(of: result))
    }

    /// `{"serialNumbers": …}` (or `{"orderIdentifiers": …}` for an order type), or 204 when none changed since the tag.
    private func updatedSerials(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let device = try RouteSupport.component(WalletRoute.Parameter.device, context)
        let type = try RouteSupport.component(WalletRoute.Parameter.type, context)
        let kind = WalletWebService.Kind(typeIdentifier: type)
        let since = try RouteSupport.since(request, kind)
        let result = try await core.deviceReads.updatedSerials(device: device, passTypeIdentifier: type, since: since)
        return RouteSupport.updatedList(DeviceAnswers.list(result, kind))
    }

    private func unregisterDevice(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let device = try RouteSupport.component(WalletRoute.Parameter.device, context)
        let type = try RouteSupport.component(WalletRoute.Parameter.type, context)
        let serial = try RouteSupport.component(WalletRoute.Parameter.serial, context)
        _ = try await authorized(request, WalletWebService.Kind(typeIdentifier: type), type: type, serial: serial)
        try await core.registrations.unregister(
            device: device, passTypeIdentifier: type, serialNumber: serial, counted: !core.selfCheckMark.marks(request.headers))
        return Response(status: .init(code: WalletWebService.Status.unregistered))
    }

    /// The signed latest version of a pass (`passes/{type}/{serial}`) or an order (`orders/{type}/{id}`), 304 when
    /// `If-Modified-Since` is not older than it.
    private func latest(_ kind: WalletWebService.Kind, _ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let type = try RouteSupport.component(WalletRoute.Parameter.type, context)
        let serial = try RouteSupport.component(WalletRoute.Parameter.serial, context)
        let view = try await authorized(request, kind, type: type, serial: serial)
        if DeviceAnswers.notModified(view, ifModifiedSince: request.headers[.ifModifiedSince]) {
            // No Content-Length: a 304 may carry only the length the 200 would have (RFC 9110 §8.6), not the 0 of its empty body.
            var response = Response(status: .init(code: WalletWebService.Status.notModified), headers: [.lastModified: view.lastModified])
            response.headers[.contentLength] = nil
            return response
        }
        // A device's download of a pass is a `fetched` event; the self-check's is not.
        let counted = kind == .pass && !core.selfCheckMark.marks(request.headers)
        let bytes = try await counted ? core.downloads.deviceFetch(view.pass) : core.downloads.latestPass(view.pass)
        return RouteSupport.bytes(
            bytes, type: kind.mimeType, headers: [.lastModified: view.lastModified], status: .init(code: WalletWebService.Status.latest))
    }

    /// Rewards enrollment (Apple's “Return a Personalized Pass”; the Passmint article “The update web service
    /// protocol”). Apple documents no Authorization header here; when one is sent it must match.
    private func personalize(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let type = try RouteSupport.component(WalletRoute.Parameter.type, context)
        let serial = try RouteSupport.component(WalletRoute.Parameter.serial, context)
        if request.headers[.authorization] != nil { _ = try await authorized(request, .pass, type: type, serial: serial) }
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
        return RouteSupport.bytes(
            personalized.signature, type: "application/octet-stream", status: .init(code: WalletWebService.Status.personalized))
    }

    private func log(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let body: LogBody
        do {
            body = try LogBody(json: try await RouteSupport.jsonObject(request, limit: bodyLimit))
        } catch let error as WalletBodyError {
            throw ServiceFailure.badRequest(error.message)
        }
        let client = ClientAddress.resolve(
            peer: context.clientAddress, headers: request.headers, trusted: core.configuration.trustedProxies)
        // The self-check's message is its own, not a device's: not kept for the operator.
        if !core.selfCheckMark.marks(request.headers) { core.deviceLogs.record(body.logs, client: client) }
        return Response(status: .init(code: WalletWebService.Status.logged))
    }
}
