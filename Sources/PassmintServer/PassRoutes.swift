import Foundation
public import ServiceLifecycle
public import Hummingbird
public import Logging
import NIOCore
import Passmint
import PassmintPush
import PassmintStore

/// Apple's pass web service (v1) and the issuing API, on a Hummingbird router.
struct PassRoutes: Sendable {
    let service: PassService

    static let pkpassType = "application/vnd.apple.pkpass"

    func register(on router: Router<BasicRequestContext>) {
        getAndHead(router, "/health") { _, _ in Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "ok\n"))) }

        let prefix = service.settings.pathPrefix
        let apple = router.group(RouterPath(prefix + "/v1"))
        apple.post("devices/:device/registrations/:type/:serial") { request, context in try await registerDevice(request, context) }
        getAndHead(apple, "devices/:device/registrations/:type") { request, context in try await updatedSerials(request, context) }
        apple.delete("devices/:device/registrations/:type/:serial") { request, context in try await unregisterDevice(request, context) }
        getAndHead(apple, "passes/:type/:serial") { request, context in try await latestPass(request, context) }
        apple.post("passes/:type/:serial/personalize") { request, context in try await personalize(request, context) }
        apple.post("log") { request, context in try await log(request, context) }

        let api = router.group("/api/v1")
        api.post("passes") { request, context in try await issue(request, context) }
        api.patch("passes/:type/:serial") { request, context in try await update(request, context) }
        api.post("bundles") { request, context in try await issueBundle(request, context) }
        getAndHead(api, "passes/:type/:serial") { request, context in try await metadata(request, context) }
        api.get("logs") { request, context in
            try authorizeAPI(request)
            return json(.ok, .array(service.recentDeviceLogs.map(JSONValue.string)))
        }
        api.get("stats") { request, context in
            try authorizeAPI(request)
            return json(.ok, statisticsJSON())
        }
    }

    // MARK: Helpers

    /// Registers `handler` for GET and HEAD: HEAD answers the same status and headers (`Content-Length` of the body
    /// GET would send) with no body, for `curl -I`, monitors and caches.
    private func getAndHead<Methods: RouterMethods>(
        _ router: Methods, _ path: RouterPath, _ handler: @escaping @Sendable (Request, BasicRequestContext) async throws -> Response
    ) where Methods.Context == BasicRequestContext {
        router.get(path, use: handler)
        router.head(path) { request, context in
            var response = try await handler(request, context)
            // The length GET would send, and no bytes: HTTP/1.1 sends no body after the head of a HEAD response.
            response.body = ResponseBody(contentLength: response.body.contentLength) { writer in try await writer.finish(nil) }
            return response
        }
    }

    private func component(_ name: String, _ context: BasicRequestContext) throws -> String {
        guard let value = context.parameters.get(name), PassService.isValidComponent(value) else {
            throw HTTPError(.badRequest, message: "\(name) must be 1–128 characters of letters, digits and . _ - : ~")
        }
        return value
    }

    private func body(_ request: Request) async throws -> JSONObject {
        var request = request
        let buffer = try await request.collectBody(upTo: service.settings.maxBodySize)
        guard let object = try? JSONParser.value(Array(buffer.readableBytesView)).objectValue else {
            throw HTTPError(.badRequest, message: "the body must be a JSON object")
        }
        return object
    }

    private func json(_ status: HTTPResponse.Status, _ value: JSONValue) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: JSONWriter.data(value, style: .compact))))
    }

    /// The pass, when the request carries its token. A 401 never says whether the serial exists.
    private func authorizedPass(_ request: Request, type: String, serial: String) async throws -> DevicePassView {
        let view = try await service.devicePass(passTypeIdentifier: type, serialNumber: serial)
        guard DeviceAnswers.authorizes(request.headers[.authorization], view), let view else { throw HTTPError(.unauthorized) }
        return view
    }

    private func authorizeAPI(_ request: Request) throws {
        guard let key = service.settings.apiKey, let header = request.headers[.authorization], header.hasPrefix("Bearer "),
            PassService.tokensMatch(String(header.dropFirst(7)), key)
        else { throw HTTPError(.unauthorized, message: "give the API key as Authorization: Bearer <key>") }
    }

    private func mapped<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let failure as PassService.Failure {
            switch failure {
            case .badRequest(let message): throw HTTPError(.badRequest, message: message)
            case .notFound: throw HTTPError(.notFound)
            case .conflict(let message): throw HTTPError(.conflict, message: message)
            case .unprocessable(let message): throw HTTPError(.unprocessableContent, message: message)
            }
        }
    }

    // MARK: Apple's protocol

    private func registerDevice(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let device = try component("device", context)
        let type = try component("type", context)
        let serial = try component("serial", context)
        _ = try await authorizedPass(request, type: type, serial: serial)
        let object = try await body(request)
        guard let pushToken = object["pushToken"]?.stringValue, PassService.isValidComponent(pushToken) else {
            throw HTTPError(.badRequest, message: "the body must be {\"pushToken\": \"<hex token>\"}")
        }
        let result = try await service.store.register(deviceLibraryIdentifier: device, pushToken: pushToken, passTypeIdentifier: type, serialNumber: serial)
        return Response(status: result == .created ? .created : .ok)
    }

    private func updatedSerials(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let device = try component("device", context)
        let type = try component("type", context)
        guard case .success(let since) = DeviceAnswers.since(request.uri.queryParameters.get("passesUpdatedSince").map { Substring($0) }) else {
            throw HTTPError(.badRequest, message: "passesUpdatedSince must be a tag this service returned")
        }
        let answer = DeviceAnswers.poll(try await service.updatedSerials(device: device, passTypeIdentifier: type, since: since))
        guard let body = answer.body else { return Response(status: answer.status) }
        return Response(status: answer.status, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
    }

    private func unregisterDevice(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let device = try component("device", context)
        let type = try component("type", context)
        let serial = try component("serial", context)
        _ = try await authorizedPass(request, type: type, serial: serial)
        _ = try await service.store.unregister(deviceLibraryIdentifier: device, passTypeIdentifier: type, serialNumber: serial)
        return Response(status: .ok)
    }

    private func latestPass(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let type = try component("type", context)
        let serial = try component("serial", context)
        let view = try await authorizedPass(request, type: type, serial: serial)
        let pass = view.pass
        let lastModified = view.lastModified
        if DeviceAnswers.notModified(view, ifModifiedSince: request.headers[.ifModifiedSince]) {
            return Response(status: .notModified, headers: [.lastModified: lastModified])
        }
        let bytes = try await mapped { try service.latestPass(pass) }
        return Response(status: .ok, headers: [.contentType: Self.pkpassType, .lastModified: lastModified],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Rewards enrollment (Apple's “Return a Personalized Pass”; the Passmint article “The update web service
    /// protocol”). Apple documents no Authorization header here; when one is sent it must match.
    private func personalize(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let type = try component("type", context)
        let serial = try component("serial", context)
        if request.headers[.authorization] != nil { _ = try await authorizedPass(request, type: type, serial: serial) }
        let object = try await body(request)
        guard let token = object["personalizationToken"]?.stringValue else {
            throw HTTPError(.badRequest, message: "the body must be {\"personalizationToken\": \"…\", \"requiredPersonalizationInfo\": {…}}")
        }
        let infoValue = object["requiredPersonalizationInfo"] ?? .object(JSONObject())
        guard let infoObject = infoValue.objectValue else { throw HTTPError(.badRequest, message: "requiredPersonalizationInfo must be an object") }
        let info: PersonalizationInfo
        do {
            info = try PersonalizationInfo(json: infoObject)
        } catch {
            throw HTTPError(.badRequest, message: error.message)
        }
        let personalized = try await mapped {
            try await service.personalize(passTypeIdentifier: type, serialNumber: serial, token: token, info: info)
        }
        return Response(status: .ok, headers: [.contentType: "application/octet-stream"],
                        body: .init(byteBuffer: ByteBuffer(bytes: personalized.signature)))
    }

    private func log(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let object = try await body(request)
        guard let logs = object["logs"]?.arrayValue else { throw HTTPError(.badRequest, message: "the body must be {\"logs\": [\"…\"]}") }
        service.recordDeviceLogs(logs.compactMap(\.stringValue))
        return Response(status: .ok)
    }

    // MARK: Issuing API

    private func metadataJSON(_ pass: StoredPass, registrations: Int?, pushes: [PushOutcome]? = nil) -> JSONObject {
        var object: JSONObject = [
            "passTypeIdentifier": .string(pass.passTypeIdentifier), "serialNumber": .string(pass.serialNumber),
            "authenticationToken": .string(pass.authenticationToken), "template": .string(pass.template),
            "updateTag": .string(String(pass.updateTag)), "lastModified": .string(HTTPDate.string(pass.updatedAt)), "voided": .bool(pass.voided),
            "url": .string(service.settings.publicURL + "/v1/passes/\(pass.passTypeIdentifier)/\(pass.serialNumber)"),
        ]
        object["data"] = (try? JSONParser.value(Array(pass.dataJSON.utf8))) ?? .null
        object["personalization"] = pass.personalizationJSON.flatMap { try? JSONParser.value(Array($0.utf8)) } ?? .null
        if let registrations { object["registrations"] = .number(JSONNumber(registrations)) }
        if let pushes { object["push"] = PassService.pushSummary(pushes) } else {
            object["lastPush"] = pass.lastPushJSON.flatMap { try? JSONParser.value(Array($0.utf8)) } ?? .null
        }
        return object
    }

    /// What the service has done since it started: pushes counted by outcome, answers from the fast path.
    private func statisticsJSON() -> JSONValue {
        let pushes = service.pushStatistics
        func number(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
        return [
            "pushes": [
                "updates": number(pushes.updates), "devices": number(pushes.devices), "delivered": number(pushes.delivered),
                "unregistered": number(pushes.unregistered), "failed": number(pushes.failed), "attempts": number(pushes.attempts),
            ],
            "fastPathAnswers": number(service.fastPathAnswers),
            "deviceLogsKept": number(service.recentDeviceLogs.count),
        ]
    }

    private func issue(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try authorizeAPI(request)
        let object = try await body(request)
        guard let template = object["template"]?.stringValue else { throw HTTPError(.badRequest, message: "give \"template\": \"<name>\"") }
        let data = object["data"]?.objectValue ?? JSONObject()
        let issued = try await mapped { try await service.issue(template: template, data: data) }
        if request.headers[.accept]?.contains("application/json") == true {
            return json(.created, .object(metadataJSON(issued.pass, registrations: 0)))
        }
        return Response(status: .created, headers: [.contentType: Self.pkpassType, .lastModified: HTTPDate.string(issued.pass.updatedAt)],
                        body: .init(byteBuffer: ByteBuffer(bytes: issued.archive)))
    }

    /// A multi-ticket order: `{"passes": [{"template": …, "data": {…}}, …]}` → 201 with a `.pkpasses` bundle.
    private func issueBundle(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try authorizeAPI(request)
        let object = try await body(request)
        guard let orders = object["passes"]?.arrayValue, !orders.isEmpty else {
            throw HTTPError(.badRequest, message: "give {\"passes\": [{\"template\": …, \"data\": {…}}, …]}")
        }
        guard orders.count <= PassBundle.maximumPasses else {
            throw HTTPError(.badRequest, message: "a bundle holds at most \(PassBundle.maximumPasses) passes; this order has \(orders.count)")
        }
        let parsed = try orders.enumerated().map { index, order in
            guard let template = order["template"]?.stringValue else { throw HTTPError(.badRequest, message: "passes[\(index)] has no \"template\"") }
            let data = order["data"] ?? .object(JSONObject())
            guard let object = data.objectValue else { throw HTTPError(.badRequest, message: "passes[\(index)].data must be an object") }
            return PassService.Order(template: template, data: object)
        }
        let bundle = try await mapped { try await service.issue(orders: parsed) }.bundle
        return Response(status: .created, headers: [.contentType: PassBundle.mimeType], body: .init(byteBuffer: ByteBuffer(bytes: bundle)))
    }

    private func update(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try authorizeAPI(request)
        let type = try component("type", context)
        let serial = try component("serial", context)
        let object = try await body(request)
        let data = object["data"]
        guard data == nil || data?.objectValue != nil else { throw HTTPError(.badRequest, message: "\"data\" must be an object") }
        let voided = object["voided"]
        guard voided == nil || voided?.boolValue != nil else { throw HTTPError(.badRequest, message: "\"voided\" must be true or false") }
        guard data != nil || voided != nil else { throw HTTPError(.badRequest, message: "give {\"data\": {…}} and/or {\"voided\": true}") }
        let updated = try await mapped { try await service.update(passTypeIdentifier: type, serialNumber: serial, data: data?.objectValue, voided: voided?.boolValue) }
        let registrations = try await service.store.registrations(passTypeIdentifier: type, serialNumber: serial).count
        var answer = metadataJSON(updated.pass, registrations: registrations, pushes: updated.changed ? updated.pushes : nil)
        answer["changed"] = .bool(updated.changed)
        return json(.ok, .object(answer))
    }

    private func metadata(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try authorizeAPI(request)
        let type = try component("type", context)
        let serial = try component("serial", context)
        guard let pass = try await service.store.pass(passTypeIdentifier: type, serialNumber: serial) else { throw HTTPError(.notFound) }
        let registrations = try await service.store.registrations(passTypeIdentifier: type, serialNumber: serial).count
        return json(.ok, .object(metadataJSON(pass, registrations: registrations)))
    }
}

/// Builds the service's router.
public func buildRouter(service: PassService) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    PassRoutes(service: service).register(on: router)
    return router
}

/// Builds the application: the router, the bind address, and services to run beside it (e.g. a PostgreSQL client).
public func buildApplication(service: PassService, services: [any Service] = [], logger: Logger) -> some ApplicationProtocol {
    let fastPath = service.settings.fastPath
    var app = Application(
        router: buildRouter(service: service),
        server: .http1(configuration: .init(additionalChannelHandlers: fastPath ? [DeviceFastPath(service: service)] : [])),
        configuration: .init(address: .hostname(service.settings.host, port: service.settings.port), serverName: "passmint"),
        services: services,
        logger: logger)
    app.beforeServerStarts { try await service.store.migrate() }
    return app
}
