/// The links and contacts of a semantic boarding pass (iOS 26; see <doc:PassFormat>): the top-level `pass.json` keys
/// `managementURL`, `changeSeatURL`, `transitProviderPhoneNumber`, … (``Pass/boardingPassLinks``).
public struct BoardingPassLinks: StringKeyGroup {
    /// Changing the seat.
    public var changeSeatURL: String?
    /// In-flight entertainment.
    public var entertainmentURL: String?
    /// Buying more baggage allowance.
    public var purchaseAdditionalBaggageURL: String?
    /// Buying lounge access.
    public var purchaseLoungeAccessURL: String?
    /// Buying in-flight Wi-Fi.
    public var purchaseWifiURL: String?
    /// Upgrading the ticket.
    public var upgradeURL: String?
    /// Managing the booking.
    public var managementURL: String?
    /// Registering a service animal.
    public var registerServiceAnimalURL: String?
    /// Reporting a lost bag.
    public var reportLostBagURL: String?
    /// Requesting a wheelchair.
    public var requestWheelchairURL: String?
    /// Tracking checked bags.
    public var trackBagsURL: String?
    /// The airline's e-mail address.
    public var transitProviderEmail: String?
    /// The airline's phone number.
    public var transitProviderPhoneNumber: String?
    /// The airline's website.
    public var transitProviderWebsiteURL: String?

    public init() {}

    public static var members: [(key: String, property: WritableKeyPath<BoardingPassLinks, String?>)] {
        [
            ("changeSeatURL", \.changeSeatURL),
            ("entertainmentURL", \.entertainmentURL),
            ("purchaseAdditionalBaggageURL", \.purchaseAdditionalBaggageURL),
            ("purchaseLoungeAccessURL", \.purchaseLoungeAccessURL),
            ("purchaseWifiURL", \.purchaseWifiURL),
            ("upgradeURL", \.upgradeURL),
            ("managementURL", \.managementURL),
            ("registerServiceAnimalURL", \.registerServiceAnimalURL),
            ("reportLostBagURL", \.reportLostBagURL),
            ("requestWheelchairURL", \.requestWheelchairURL),
            ("trackBagsURL", \.trackBagsURL),
            ("transitProviderEmail", \.transitProviderEmail),
            ("transitProviderPhoneNumber", \.transitProviderPhoneNumber),
            ("transitProviderWebsiteURL", \.transitProviderWebsiteURL),
        ]
    }
}
