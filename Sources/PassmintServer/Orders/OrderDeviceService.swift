import Foundation
import Passmint
public import PassmintStore

/// The device's side of Wallet orders (Apple's order web service) that differs from passes: the order's token
/// (`Authorization: AppleOrder <token>`) and its signed `.order`. Registering, leaving and the orders changed since a
/// tag are the passes' (``RegistrationService``, ``PassStore/updatedSerials(deviceLibraryIdentifier:passTypeIdentifier:updatedSince:)``):
/// an order is a document of the same store.
public struct OrderDeviceService: Sendable {
    let issuing: OrderService
    let renderer: OrderRenderer

    /// The order, when `authorization` carries its token (compared in constant time, also when there is no order); 401
    /// otherwise, never saying whether the order exists.
    public func authorizedOrder(type: String, id: String, authorization: String?) async throws -> StoredPass {
        let order = try await issuing.order(type, id)
        let presented = WalletWebService.Kind.order.presentedToken(authorization).map(String.init)
        let matches = TokenComparison.matches(presented ?? "", order?.authenticationToken ?? "no order here, compared anyway")
        guard let order, presented != nil, matches else { throw ServiceFailure.unauthorized() }
        return order
    }

    /// The signed `.order` of the order's current version.
    public func latestOrder(_ order: StoredPass) throws(ServiceFailure) -> [UInt8] { try renderer.build(order).archive }
}
