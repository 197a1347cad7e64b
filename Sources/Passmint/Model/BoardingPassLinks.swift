/// The links and contacts of a semantic boarding pass (iOS 26, spec §2.7): the top-level `pass.json` keys
/// `managementURL`, `changeSeatURL`, `transitProviderPhoneNumber`, … (``Pass/boardingPassLinks``).
public struct BoardingPassLinks: Codable, Sendable, Hashable {
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

    /// The `pass.json` keys, in the order Passmint writes them.
    public static let keys = [
        "changeSeatURL", "entertainmentURL", "purchaseAdditionalBaggageURL", "purchaseLoungeAccessURL",
        "purchaseWifiURL", "upgradeURL", "managementURL", "registerServiceAnimalURL", "reportLostBagURL",
        "requestWheelchairURL", "trackBagsURL", "transitProviderEmail", "transitProviderPhoneNumber",
        "transitProviderWebsiteURL",
    ]

    /// Whether no key is set.
    public var isEmpty: Bool { values.isEmpty }

    /// The keys that are set, with their values, in ``keys`` order.
    public var values: [(key: String, value: String)] {
        let all: [(String, String?)] = [
            ("changeSeatURL", changeSeatURL),
            ("entertainmentURL", entertainmentURL),
            ("purchaseAdditionalBaggageURL", purchaseAdditionalBaggageURL),
            ("purchaseLoungeAccessURL", purchaseLoungeAccessURL),
            ("purchaseWifiURL", purchaseWifiURL),
            ("upgradeURL", upgradeURL),
            ("managementURL", managementURL),
            ("registerServiceAnimalURL", registerServiceAnimalURL),
            ("reportLostBagURL", reportLostBagURL),
            ("requestWheelchairURL", requestWheelchairURL),
            ("trackBagsURL", trackBagsURL),
            ("transitProviderEmail", transitProviderEmail),
            ("transitProviderPhoneNumber", transitProviderPhoneNumber),
            ("transitProviderWebsiteURL", transitProviderWebsiteURL),
        ]
        return all.compactMap { key, value in value.map { (key, $0) } }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        changeSeatURL = try c.optional("changeSeatURL")
        entertainmentURL = try c.optional("entertainmentURL")
        purchaseAdditionalBaggageURL = try c.optional("purchaseAdditionalBaggageURL")
        purchaseLoungeAccessURL = try c.optional("purchaseLoungeAccessURL")
        purchaseWifiURL = try c.optional("purchaseWifiURL")
        upgradeURL = try c.optional("upgradeURL")
        managementURL = try c.optional("managementURL")
        registerServiceAnimalURL = try c.optional("registerServiceAnimalURL")
        reportLostBagURL = try c.optional("reportLostBagURL")
        requestWheelchairURL = try c.optional("requestWheelchairURL")
        trackBagsURL = try c.optional("trackBagsURL")
        transitProviderEmail = try c.optional("transitProviderEmail")
        transitProviderPhoneNumber = try c.optional("transitProviderPhoneNumber")
        transitProviderWebsiteURL = try c.optional("transitProviderWebsiteURL")
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        for (key, value) in values { try c.put(value, key) }
    }
}
