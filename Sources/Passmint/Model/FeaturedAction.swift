/// An entry of `featuredActions` (iOS 27, seen only in Apple's 2026 Pass Builder preview; see <doc:PassFormat>): a quick action
/// shown on the pass. Wallet shows at most 2.
///
/// ```swift
/// pass.featuredActions = [FeaturedAction(identifier: "schedule", type: .viewSchedule, url: "https://example.com/schedule")]
/// ```
///
/// Keys the model does not know stay in ``additionalProperties``.
public struct FeaturedAction: Codable, Sendable, Hashable {
    /// What the action does. Any string is kept; the constants are the types known so far.
    public struct ActionType: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }
        public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        public static let viewSchedule: ActionType = "viewSchedule"
        public static let watchTrailer: ActionType = "watchTrailer"
        public static let listenToMusic: ActionType = "listenToMusic"
        public static let call: ActionType = "call"
        /// Opens Maps at ``FeaturedAction/placeIdentifier`` instead of a URL.
        public static let place: ActionType = "place"
        public static let addToBalance: ActionType = "addToBalance"
        public static let order: ActionType = "order"
        public static let shop: ActionType = "shop"
        public static let membershipBenefits: ActionType = "membershipBenefits"
        public static let bookAppointment: ActionType = "bookAppointment"
        public static let bookCar: ActionType = "bookCar"
        public static let bookFlight: ActionType = "bookFlight"
        public static let bookStay: ActionType = "bookStay"
        public static let viewOffersRewards: ActionType = "viewOffersRewards"
    }

    /// Tells the pass's actions apart.
    public var identifier: String
    public var type: ActionType
    /// The link the action opens (every type but ``ActionType/place``).
    public var url: String?
    /// A Maps place identifier, for ``ActionType/place``.
    public var placeIdentifier: String?
    /// Keys this model does not know, kept as they are.
    public var additionalProperties = JSONObject()

    public init(identifier: String, type: ActionType, url: String? = nil, placeIdentifier: String? = nil) {
        self.identifier = identifier
        self.type = type
        self.url = url
        self.placeIdentifier = placeIdentifier
    }

    static let modelKeys: Set<String> = ["identifier", "type", "url", "placeIdentifier"]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        identifier = try c.required("identifier")
        type = try c.required("type")
        url = try c.optional("url")
        placeIdentifier = try c.optional("placeIdentifier")
        additionalProperties = try c.unknownMembers(known: Self.modelKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.put(identifier, "identifier")
        try c.put(type, "type")
        try c.put(url, "url")
        try c.put(placeIdentifier, "placeIdentifier")
        try c.put(unknown: additionalProperties)
    }
}
