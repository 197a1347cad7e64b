/// An entry of `upcomingPassInformation` (iOS 26): a later event of a poster event ticket that covers several, shown
/// in the ticket's event guide. The shape is Apple's upcoming pass entry dictionary (`type` `event`, `identifier`,
/// `name`, dates, links, fields, semantic tags); see <doc:PassFormat>.
///
/// ```swift
/// var night2 = UpcomingPassEntry(identifier: "night-2", name: "Northern Lights Live, night 2")
/// night2.dateInformation = .init(date: "2026-10-04T19:30:00+02:00", timeZone: "Europe/Oslo")
/// night2.urls = EventLinks()
/// night2.urls?.parkingInformationURL = "https://example.com/parking"
/// pass.upcomingPassInformation = [night2]
/// ```
///
/// Keys the model does not know stay in ``additionalProperties`` (those inside `URLs` in ``additionalURLs``).
public struct UpcomingPassEntry: Codable, Sendable, Hashable {
    /// When the event takes place (`dateInformation`); without it Wallet labels the entry as to be decided.
    public struct DateInformation: Codable, Sendable, Hashable {
        /// W3C date-time with a time zone.
        public var date: String?
        /// IANA time zone name, e.g. `Europe/Oslo`.
        public var timeZone: String?
        public var ignoreTimeComponents: Bool?
        public var isAllDay: Bool?
        /// Shows "Time TBA" instead of the time.
        public var isUnannounced: Bool?
        public var isUndetermined: Bool?
        /// Keys this model does not know, kept as they are.
        public var additionalProperties = JSONObject()

        public init(date: String? = nil, timeZone: String? = nil) {
            self.date = date
            self.timeZone = timeZone
        }

        static let modelKeys: Set<String> = ["date", "timeZone", "ignoreTimeComponents", "isAllDay", "isUnannounced", "isUndetermined"]

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyCodingKey.self)
            date = try c.optional("date")
            timeZone = try c.optional("timeZone")
            ignoreTimeComponents = try c.optional("ignoreTimeComponents")
            isAllDay = try c.optional("isAllDay")
            isUnannounced = try c.optional("isUnannounced")
            isUndetermined = try c.optional("isUndetermined")
            additionalProperties = try c.unknownMembers(known: Self.modelKeys)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            try c.put(date, "date")
            try c.put(timeZone, "timeZone")
            try c.put(ignoreTimeComponents, "ignoreTimeComponents")
            try c.put(isAllDay, "isAllDay")
            try c.put(isUnannounced, "isUnannounced")
            try c.put(isUndetermined, "isUndetermined")
            try c.put(unknown: additionalProperties)
        }
    }

    /// The entry type; `event` is the only one Wallet documents (any string is kept).
    public var type: String
    /// Unique among the pass's entries.
    public var identifier: String
    public var name: String
    /// Whether the event is the one happening now (default false).
    public var isActive: Bool?
    public var dateInformation: DateInformation?
    /// The event's own semantic tags (venue, performers, …).
    public var semantics: SemanticTags?
    /// The event guide's links (the `URLs` key).
    public var urls: EventLinks?
    /// Keys inside `URLs` that ``EventLinks`` does not know, kept as they are.
    public var additionalURLs = JSONObject()
    public var additionalInfoFields: [PassField]?
    public var backFields: [PassField]?
    public var auxiliaryStoreIdentifiers: [Int]?
    /// Header image and venue map (`images`), as JSON.
    public var images: JSONValue?
    /// Keys this model does not know, kept as they are.
    public var additionalProperties = JSONObject()

    public init(identifier: String, name: String, type: String = "event") {
        self.type = type
        self.identifier = identifier
        self.name = name
    }

    static let modelKeys: Set<String> = [
        "type", "identifier", "name", "isActive", "dateInformation", "semantics", "URLs", "additionalInfoFields", "backFields",
        "auxiliaryStoreIdentifiers", "images",
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        type = try c.required("type")
        identifier = try c.required("identifier")
        name = try c.required("name")
        isActive = try c.optional("isActive")
        dateInformation = try c.optional("dateInformation")
        semantics = try c.optional("semantics")
        if c.contains(AnyCodingKey("URLs")) {
            urls = try c.required("URLs")
            let nested = try c.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey("URLs"))
            additionalURLs = try nested.unknownMembers(known: Set(EventLinks.keys))
        }
        additionalInfoFields = try c.optional("additionalInfoFields")
        backFields = try c.optional("backFields")
        auxiliaryStoreIdentifiers = try c.optional("auxiliaryStoreIdentifiers")
        images = try c.optional("images")
        additionalProperties = try c.unknownMembers(known: Self.modelKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.put(type, "type")
        try c.put(identifier, "identifier")
        try c.put(name, "name")
        try c.put(isActive, "isActive")
        try c.put(dateInformation, "dateInformation")
        try c.put(semantics, "semantics")
        if urls != nil || !additionalURLs.members.isEmpty {
            var nested = c.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey("URLs"))
            for (key, value) in (urls ?? EventLinks()).values { try nested.put(value, key) }
            try nested.put(unknown: additionalURLs)
        }
        try c.put(additionalInfoFields, "additionalInfoFields")
        try c.put(backFields, "backFields")
        try c.put(auxiliaryStoreIdentifiers, "auxiliaryStoreIdentifiers")
        try c.put(images, "images")
        try c.put(unknown: additionalProperties)
    }
}
