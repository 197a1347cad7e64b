import Foundation
import Passmint
public import PassmintStore

/// The device's side of Wallet orders (Apple's order web service): register and leave with the order's token
/// (`Authorization: AppleOrder <token>`), the orders of a type changed since a tag, and the latest signed order.
public struct OrderDeviceService: Sendable {
    let issuing: OrderService
    let renderer: OrderRenderer

    /// Order type identifiers begin with `order.`: requests naming such a type are the order web service's, on the
    /// paths the pass web service shares with it.
    public static func isOrderType(_ type: String) -> Bool { WalletWebService.Kind(typeIdentifier: type) == .order }

    /// The order, when `authorization` carries its token (compared in constant time, also when there is no order); 401
    /// otherwise, never saying whether the order exists.
    public func authorizedOrder(type: String, id: String, authorization: String?) async throws -> StoredOrder {
        let order = try await issuing.orders().order(orderTypeIdentifier: type, orderIdentifier: id)
        let presented = WalletWebService.Kind.order.presentedToken(authorization).map(String.init)
        let matches = TokenComparison.matches(presented ?? "", order?.authenticationToken ?? "no order here, compared anyway")
        guard let order, presented != nil, matches else { throw ServiceFailure.unauthorized() }
        return order
    }

    public func register(device: String, pushToken: String, order: StoredOrder) async throws -> RegistrationResult {
        try await issuing.orders().registerOrder(
            deviceLibraryIdentifier: device, pushToken: pushToken, orderTypeIdentifier: order.orderTypeIdentifier,
            orderIdentifier: order.orderIdentifier)
    }

    public func unregister(device: String, order: StoredOrder) async throws {
        _ = try await issuing.orders().unregisterOrder(
            deviceLibraryIdentifier: device, orderTypeIdentifier: order.orderTypeIdentifier, orderIdentifier: order.orderIdentifier)
    }

    public func updatedOrders(device: String, type: String, since: Int64?) async throws -> UpdatedOrders {
        try await issuing.orders().updatedOrders(deviceLibraryIdentifier: device, orderTypeIdentifier: type, updatedSince: since)
    }

    /// The signed `.order` of the order's current version.
    public func latestOrder(_ order: StoredOrder) throws(ServiceFailure) -> [UInt8] { try renderer.build(order).archive }
}
