/// The links and contacts of a poster event ticket (iOS 18; see <doc:PassFormat>): the top-level `pass.json` keys
/// `parkingInformationURL`, `contactVenueEmail`, … (``Pass/eventLinks``), and the `URLs` of an upcoming event
/// (``UpcomingPassEntry/urls``). Wallet shows them in the event guide.
public struct EventLinks: StringKeyGroup {
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

    public static var members: [(key: String, property: WritableKeyPath<EventLinks, String?>)] {
        [
            ("accessibilityURL", \.accessibilityURL),
            ("addOnURL", \.addOnURL),
            ("bagPolicyURL", \.bagPolicyURL),
            ("contactVenueEmail", \.contactVenueEmail),
            ("contactVenuePhoneNumber", \.contactVenuePhoneNumber),
            ("contactVenueWebsite", \.contactVenueWebsite),
            ("directionsInformationURL", \.directionsInformationURL),
            ("merchandiseURL", \.merchandiseURL),
            ("orderFoodURL", \.orderFoodURL),
            ("parkingInformationURL", \.parkingInformationURL),
            ("purchaseParkingURL", \.purchaseParkingURL),
            ("sellURL", \.sellURL),
            ("transferURL", \.transferURL),
            ("transitInformationURL", \.transitInformationURL),
        ]
    }
}
