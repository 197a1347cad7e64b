/// The kinds of Google Wallet pass this package issues, with their REST collections.
public enum GoogleWalletStyle: String, Sendable, CaseIterable {
    case loyalty
    case giftCard
    case eventTicket
    case flight
    case transit
    case offer
    case generic

    /// The class collection (`loyaltyClass`), as in `/walletobjects/v1/loyaltyClass`.
    public var classCollection: String { rawValue + "Class" }

    /// The object collection (`loyaltyObject`).
    public var objectCollection: String { rawValue + "Object" }

    /// The save link payload's key for objects of this style (`loyaltyObjects`).
    public var payloadKey: String { rawValue + "Objects" }
}
