/// The links and contacts of a poster event ticket (iOS 18, spec §2.7): the top-level `pass.json` keys
/// `parkingInformationURL`, `contactVenueEmail`, … (``Pass/eventLinks``), and the `URLs` of an upcoming event
/// (``UpcomingPassEntry/urls``). Wallet shows them in the event guide.
public struct EventLinks: Codable, Sendable, Hashable {
    /// The venue's or your accessibility information.
    public var accessibilityURL: String?
    /// Experiences to add to the ticket, or the ones already bought.
    public var addOnURL: String?
    /// The venue's bag policy.
    public var bagPolicyURL: String?
    /// The e-mail address to contact the venue, event or issuer.
    public var contactVenueEmail: String?
    /// The phone number to contact the venue, event or issuer.
    public var contactVenuePhoneNumber: String?
    /// The website of the venue, event or issuer.
    public var contactVenueWebsite: String?
    /// How to get to the venue.
    public var directionsInformationURL: String?
    /// Merchandise for the event.
    public var merchandiseURL: String?
    /// Food ordering at the venue.
    public var orderFoodURL: String?
    /// Parking information.
    public var parkingInformationURL: String?
    /// Buying or showing prepaid parking.
    public var purchaseParkingURL: String?
    /// Your flow for selling the ticket.
    public var sellURL: String?
    /// Your flow for transferring the ticket.
    public var transferURL: String?
    /// Public or private transit to the venue.
    public var transitInformationURL: String?

    public init() {}

    /// The `pass.json` keys, in the order Passmint writes them.
    public static let keys = [
        "accessibilityURL", "addOnURL", "bagPolicyURL", "contactVenueEmail", "contactVenuePhoneNumber",
        "contactVenueWebsite", "directionsInformationURL", "merchandiseURL", "orderFoodURL", "parkingInformationURL",
        "purchaseParkingURL", "sellURL", "transferURL", "transitInformationURL",
    ]

    /// Whether no key is set.
    public var isEmpty: Bool { values.isEmpty }

    /// The keys that are set, with their values, in ``keys`` order.
    public var values: [(key: String, value: String)] {
        let all: [(String, String?)] = [
            ("accessibilityURL", accessibilityURL),
            ("addOnURL", addOnURL),
            ("bagPolicyURL", bagPolicyURL),
            ("contactVenueEmail", contactVenueEmail),
            ("contactVenuePhoneNumber", contactVenuePhoneNumber),
            ("contactVenueWebsite", contactVenueWebsite),
            ("directionsInformationURL", directionsInformationURL),
            ("merchandiseURL", merchandiseURL),
            ("orderFoodURL", orderFoodURL),
            ("parkingInformationURL", parkingInformationURL),
            ("purchaseParkingURL", purchaseParkingURL),
            ("sellURL", sellURL),
            ("transferURL", transferURL),
            ("transitInformationURL", transitInformationURL),
        ]
        return all.compactMap { key, value in value.map { (key, $0) } }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        accessibilityURL = try c.optional("accessibilityURL")
        addOnURL = try c.optional("addOnURL")
        bagPolicyURL = try c.optional("bagPolicyURL")
        contactVenueEmail = try c.optional("contactVenueEmail")
        contactVenuePhoneNumber = try c.optional("contactVenuePhoneNumber")
        contactVenueWebsite = try c.optional("contactVenueWebsite")
        directionsInformationURL = try c.optional("directionsInformationURL")
        merchandiseURL = try c.optional("merchandiseURL")
        orderFoodURL = try c.optional("orderFoodURL")
        parkingInformationURL = try c.optional("parkingInformationURL")
        purchaseParkingURL = try c.optional("purchaseParkingURL")
        sellURL = try c.optional("sellURL")
        transferURL = try c.optional("transferURL")
        transitInformationURL = try c.optional("transitInformationURL")
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        for (key, value) in values { try c.put(value, key) }
    }
}
