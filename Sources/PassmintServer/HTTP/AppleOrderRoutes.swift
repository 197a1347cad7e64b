import Foundation
import Hummingbird
import NIOCore
import Passmint
import PassmintStore

/// Apple's order web service (v1), beside the pass one under the same path: the registration paths are shared with
/// passes and come here when their type is an order type (`order.…`, ``WalletWebService/Kind/init(typeIdentifier:)``);
/// `orders/{type}/{id}` is the order's own.
struct AppleOrderRoutes {
    let core: ServiceCore

    func register(on apple: RouterGroup<ServiceRequestContext>) {
        apple.getAndHead(RouterPath(WalletRoute.latest.template(.order))) { request, context in try await latestOrder(request, context) }
    }

    private var devices: OrderDeviceService { core.orderDevices }

    func registerDevice(_ request: Request, device: String, type: String, id: String) async throws -> Response {
        let order = try await devices.authorizedOrder(type: type, id: id, authorization: request.headers[.authorization])
        let pushToken = try await RouteSupport.pushToken(request, limit: core.configuration.maxBodySize)
        let result = try await core.registrations.register(
            device: device, pushToken: pushToken, passTypeIdentifier: order.passTypeIdentifier, serialNumber: order.serialNumber)
        return Response(status: RouteSupport.status(of: result))
    }

    func unregisterDevice(_ request: Request, device: String, type: String, id: String) async throws -> Response {
        let order = try await devices.authorizedOrder(type: type, id: id, authorization: request.headers[.authorization])
        try await core.registrations.unregister(
            device: device, passTypeIdentifier: order.passTypeIdentifier, serialNumber: order.serialNumber)
        return Response(status: .init(code: WalletWebService.Status.unregistered))
    }

    /// `{"orderIdentifiers": [...], "lastModified": "<tag>"}`, or 204 when none changed since `ordersModifiedSince`.
    func updatedOrders(_ request: Request, device: String, type: String) async throws -> Response {
        let since = try RouteSupport.since(request, .order)
        let result = try await core.deviceReads.updatedSerials(device: device, passTypeIdentifier: type, since: since)
        return RouteSupport.updatedList(UpdatedList(kind: .order, identifiers: result.serialNumbers, tag: String(result.lastUpdated)))
    }

    private func latestOrder(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let type = try RouteSupport.component(WalletRoute.Parameter.type, context)
        let id = try RouteSupport.component(WalletRoute.Parameter.serial, context)
        let order = try await devices.authorizedOrder(type: type, id: id, authorization: request.headers[.authorization])
        let lastModified = HTTPDate.string(order.updatedAt)
        if let since = request.headers[.ifModifiedSince], since == lastModified || Self.notModified(order, since) {
            var response = Response(status: .init(code: WalletWebService.Status.notModified), headers: [.lastModified: lastModified])
            response.headers[.contentLength] = nil  // a 304 carries no length of its own (RFC 9110 §8.6)
            return response
        }
        return RouteSupport.bytes(try devices.latestOrder(order), type: BuiltOrder.mimeType, headers: [.lastModified: lastModified])
    }

    /// An `If-Modified-Since` date not older than the order's last change; a date that does not parse or lies ahead of
    /// now is ignored (the order is sent).
    private static func notModified(_ order: StoredPass, _ header: String) -> Bool {
        let now = Date()
        guard let date = HTTPDate.parse(header, now: now), date <= now else { return false }
        return date >= order.updatedAt
    }
}
