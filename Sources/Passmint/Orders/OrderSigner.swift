public import Foundation

/// What an Order Type ID certificate must be to sign an order: its UID is the order's `orderTypeIdentifier` and starts
/// with `order.`, its OU is the team, and it is within its validity period.
public enum OrderSigner {
    /// Checks `identity` may sign an order of type `orderTypeIdentifier` at `date`.
    ///
    /// - Throws: ``PassmintError/Code/identityMismatch`` saying which part is wrong and what certificate to use.
    public static func check(_ identity: SigningIdentity, orderTypeIdentifier: String, at date: Date, allowExpired: Bool)
        throws(PassmintError)
    {
        let certificate = identity.certificate
        let uid = certificate.userID ?? "(none)"
        guard uid.hasPrefix("order.") else {
            throw PassmintError(
                .identityMismatch,
                "the signing certificate's UID is \"\(uid)\": orders are signed with an Order Type ID certificate, whose UID starts with \"order.\" (a Pass Type ID certificate cannot sign orders); create one for \"\(orderTypeIdentifier)\" in the Apple Developer portal"
            )
        }
        guard uid == orderTypeIdentifier else {
            throw PassmintError(
                .identityMismatch,
                "orderTypeIdentifier in order.json is \"\(orderTypeIdentifier)\" but the certificate's UID is \"\(uid)\": fix order.json, or sign with the Order Type ID certificate made for \"\(orderTypeIdentifier)\""
            )
        }
        guard let team = certificate.organizationalUnit, !team.isEmpty else {
            throw PassmintError(
                .identityMismatch,
                "the signing certificate (\(uid)) has no OU (team identifier): use the certificate Apple issued, unmodified")
        }
        if !allowExpired { try identity.checkValid(at: date, signing: "orders", certificate: "Order Type ID") }
    }
}
