public import Foundation

/// Semantic tags (`semantics` in `pass.json` and in fields): machine-readable facts about the event, venue,
/// flight or passenger that Wallet uses for poster event tickets, semantic boarding passes, Siri suggestions and
/// live activities.
///
/// Typed properties cover the tags Passmint knows; every tag, known or not, stays in ``json``, so a pass read and
/// written again keeps all of them. Setting a property to nil removes the tag.
///
/// ```swift
/// var tags = SemanticTags()
/// tags.eventType = .livePerformance
/// tags.eventName = "Northern Lights Live"
/// tags.venueName = "Aurora Hall"
/// tags.venueLocation = .init(latitude: 59.91, longitude: 10.75)
/// tags.performerNames = ["Aurora Quartet"]
/// tags.missingPosterEventTicketTags  // ["venueRegionName", "venueRoom"]
/// ```
public struct SemanticTags: Sendable, Hashable, ExpressibleByDictionaryLiteral, Codable {
    /// Every tag, as JSON, in order.
    public var json: JSONObject

    public init(_ json: JSONObject = JSONObject()) { self.json = json }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        json = JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) })
    }

    public init(from decoder: any Decoder) throws {
        guard let object = try JSONValue(from: decoder).objectValue else {
            throw DecodingError.typeMismatch(
                JSONObject.self, .init(codingPath: decoder.codingPath, debugDescription: "semantics must be an object"))
        }
        json = object
    }

    public func encode(to encoder: any Encoder) throws { try JSONValue.object(json).encode(to: encoder) }

    // MARK: Nested values

    /// A place (`venueLocation`, `departureLocation`, `destinationLocation`).
    public struct Location: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double
        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
        init?(_ value: JSONValue) {
            guard let latitude = value["latitude"]?.numberValue?.doubleValue, let longitude = value["longitude"]?.numberValue?.doubleValue
            else { return nil }
            self.init(latitude: latitude, longitude: longitude)
        }
        var json: JSONValue { ["latitude": .number(JSONNumber(latitude)), "longitude": .number(JSONNumber(longitude))] }
    }

    /// A person's name as `PersonNameComponents` encodes it (`passengerName`).
    public struct PersonName: Sendable, Hashable {
        public var givenName: String?
        public var familyName: String?
        public var middleName: String?
        public var namePrefix: String?
        public var nameSuffix: String?
        public var nickname: String?
        static let keys = ["namePrefix", "givenName", "middleName", "familyName", "nameSuffix", "nickname"]
        public init(
            givenName: String? = nil, familyName: String? = nil, middleName: String? = nil, namePrefix: String? = nil,
            nameSuffix: String? = nil, nickname: String? = nil
        ) {
            self.givenName = givenName
            self.familyName = familyName
            self.middleName = middleName
            self.namePrefix = namePrefix
            self.nameSuffix = nameSuffix
            self.nickname = nickname
        }
        init?(_ value: JSONValue) {
            guard value.objectValue != nil else { return nil }
            self.init(
                givenName: value["givenName"]?.stringValue, familyName: value["familyName"]?.stringValue,
                middleName: value["middleName"]?.stringValue, namePrefix: value["namePrefix"]?.stringValue,
                nameSuffix: value["nameSuffix"]?.stringValue, nickname: value["nickname"]?.stringValue)
        }
        var json: JSONValue {
            let values = [namePrefix, givenName, middleName, familyName, nameSuffix, nickname]
            return .object(
                JSONObject(zip(Self.keys, values).compactMap { key, value in value.map { .init(key: key, value: .string($0)) } }))
        }
    }

    /// One seat (`seats`).
    public struct Seat: Sendable, Hashable {
        public var section: String?
        public var row: String?
        public var number: String?
        public var identifier: String?
        public var type: String?
        public var description: String?
        static let keys = ["seatSection", "seatRow", "seatNumber", "seatIdentifier", "seatType", "seatDescription"]
        public init(
            section: String? = nil, row: String? = nil, number: String? = nil, identifier: String? = nil, type: String? = nil,
            description: String? = nil
        ) {
            self.section = section
            self.row = row
            self.number = number
            self.identifier = identifier
            self.type = type
            self.description = description
        }
        init?(_ value: JSONValue) {
            guard value.objectValue != nil else { return nil }
            let v = Self.keys.map { value[$0]?.stringValue }
            self.init(section: v[0], row: v[1], number: v[2], identifier: v[3], type: v[4], description: v[5])
        }
        var json: JSONValue {
            let values = [section, row, number, identifier, type, description]
            return .object(
                JSONObject(zip(Self.keys, values).compactMap { key, value in value.map { .init(key: key, value: .string($0)) } }))
        }
    }

    /// An amount of money (`totalPrice`, `balance`): the amount as a decimal string and an ISO 4217 code.
    public struct CurrencyAmount: Sendable, Hashable {
        public var amount: String
        public var currencyCode: String
        public init(amount: String, currencyCode: String) {
            self.amount = amount
            self.currencyCode = currencyCode
        }
        init?(_ value: JSONValue) {
            guard let amount = value["amount"]?.stringValue ?? value["amount"]?.numberValue?.text,
                let code = value["currencyCode"]?.stringValue
            else { return nil }
            self.init(amount: amount, currencyCode: code)
        }
        var json: JSONValue { ["amount": .string(amount), "currencyCode": .string(currencyCode)] }
    }

    /// `eventType`.
    public enum EventType: String, Sendable, CaseIterable {
        case generic = "PKEventTypeGeneric"
        case livePerformance = "PKEventTypeLivePerformance"
        case movie = "PKEventTypeMovie"
        case sports = "PKEventTypeSports"
        case conference = "PKEventTypeConference"
        case convention = "PKEventTypeConvention"
        case workshop = "PKEventTypeWorkshop"
        case socialGathering = "PKEventTypeSocialGathering"
    }

    // MARK: Accessors

    private func string(_ key: String) -> String? { json[key]?.stringValue }
    private mutating func set(_ key: String, _ value: JSONValue?) { json[key] = value }
    /// A W3C date tag; set as UTC (`2026-10-03T17:30:00Z`).
    private func date(_ key: String) -> Date? { string(key).flatMap(W3CDate.parse) }
    private mutating func setDate(_ key: String, _ value: Date?) {
        set(key, value.map { .string($0.formatted(.iso8601)) })
    }

    // Events and venues.
    public var eventType: EventType? {
        get { string("eventType").flatMap(EventType.init(rawValue:)) }
        set { set("eventType", newValue.map { .string($0.rawValue) }) }
    }
    public var eventName: String? {
        get { string("eventName") }
        set { set("eventName", newValue.map(JSONValue.string)) }
    }
    public var eventStartDate: Date? {
        get { date("eventStartDate") }
        set { setDate("eventStartDate", newValue) }
    }
    public var eventEndDate: Date? {
        get { date("eventEndDate") }
        set { setDate("eventEndDate", newValue) }
    }
    public var venueName: String? {
        get { string("venueName") }
        set { set("venueName", newValue.map(JSONValue.string)) }
    }
    public var venueRegionName: String? {
        get { string("venueRegionName") }
        set { set("venueRegionName", newValue.map(JSONValue.string)) }
    }
    public var venueRoom: String? {
        get { string("venueRoom") }
        set { set("venueRoom", newValue.map(JSONValue.string)) }
    }
    public var venueEntrance: String? {
        get { string("venueEntrance") }
        set { set("venueEntrance", newValue.map(JSONValue.string)) }
    }
    public var venueLocation: Location? {
        get { json["venueLocation"].flatMap(Location.init) }
        set { set("venueLocation", newValue?.json) }
    }
    public var performerNames: [String]? {
        get { json["performerNames"]?.arrayValue?.compactMap(\.stringValue) }
        set { set("performerNames", newValue.map { .array($0.map(JSONValue.string)) }) }
    }
    public var admissionLevel: String? {
        get { string("admissionLevel") }
        set { set("admissionLevel", newValue.map(JSONValue.string)) }
    }
    public var attendeeName: String? {
        get { string("attendeeName") }
        set { set("attendeeName", newValue.map(JSONValue.string)) }
    }
    public var homeTeamName: String? {
        get { string("homeTeamName") }
        set { set("homeTeamName", newValue.map(JSONValue.string)) }
    }
    public var homeTeamAbbreviation: String? {
        get { string("homeTeamAbbreviation") }
        set { set("homeTeamAbbreviation", newValue.map(JSONValue.string)) }
    }
    public var awayTeamName: String? {
        get { string("awayTeamName") }
        set { set("awayTeamName", newValue.map(JSONValue.string)) }
    }
    public var awayTeamAbbreviation: String? {
        get { string("awayTeamAbbreviation") }
        set { set("awayTeamAbbreviation", newValue.map(JSONValue.string)) }
    }
    public var seats: [Seat]? {
        get { json["seats"]?.arrayValue?.compactMap(Seat.init) }
        set { set("seats", newValue.map { .array($0.map(\.json)) }) }
    }
    public var totalPrice: CurrencyAmount? {
        get { json["totalPrice"].flatMap(CurrencyAmount.init) }
        set { set("totalPrice", newValue?.json) }
    }

    // Flights.
    public var airlineCode: String? {
        get { string("airlineCode") }
        set { set("airlineCode", newValue.map(JSONValue.string)) }
    }
    /// The flight number without the airline code (`flightNumber` is a number: 123 for LH123).
    public var flightNumber: Int? {
        get { json["flightNumber"]?.numberValue?.intValue }
        set { set("flightNumber", newValue.map { .number(JSONNumber($0)) }) }
    }
    public var flightCode: String? {
        get { string("flightCode") }
        set { set("flightCode", newValue.map(JSONValue.string)) }
    }
    public var departureAirportCode: String? {
        get { string("departureAirportCode") }
        set { set("departureAirportCode", newValue.map(JSONValue.string)) }
    }
    public var departureAirportName: String? {
        get { string("departureAirportName") }
        set { set("departureAirportName", newValue.map(JSONValue.string)) }
    }
    public var departureCityName: String? {
        get { string("departureCityName") }
        set { set("departureCityName", newValue.map(JSONValue.string)) }
    }
    public var departureGate: String? {
        get { string("departureGate") }
        set { set("departureGate", newValue.map(JSONValue.string)) }
    }
    public var departureTerminal: String? {
        get { string("departureTerminal") }
        set { set("departureTerminal", newValue.map(JSONValue.string)) }
    }
    /// An IANA time zone (`Europe/Vienna`).
    public var departureLocationTimeZone: String? {
        get { string("departureLocationTimeZone") }
        set { set("departureLocationTimeZone", newValue.map(JSONValue.string)) }
    }
    public var departureLocation: Location? {
        get { json["departureLocation"].flatMap(Location.init) }
        set { set("departureLocation", newValue?.json) }
    }
    public var destinationAirportCode: String? {
        get { string("destinationAirportCode") }
        set { set("destinationAirportCode", newValue.map(JSONValue.string)) }
    }
    public var destinationAirportName: String? {
        get { string("destinationAirportName") }
        set { set("destinationAirportName", newValue.map(JSONValue.string)) }
    }
    public var destinationCityName: String? {
        get { string("destinationCityName") }
        set { set("destinationCityName", newValue.map(JSONValue.string)) }
    }
    public var destinationGate: String? {
        get { string("destinationGate") }
        set { set("destinationGate", newValue.map(JSONValue.string)) }
    }
    public var destinationTerminal: String? {
        get { string("destinationTerminal") }
        set { set("destinationTerminal", newValue.map(JSONValue.string)) }
    }
    public var destinationLocationTimeZone: String? {
        get { string("destinationLocationTimeZone") }
        set { set("destinationLocationTimeZone", newValue.map(JSONValue.string)) }
    }
    public var destinationLocation: Location? {
        get { json["destinationLocation"].flatMap(Location.init) }
        set { set("destinationLocation", newValue?.json) }
    }
    public var originalDepartureDate: Date? {
        get { date("originalDepartureDate") }
        set { setDate("originalDepartureDate", newValue) }
    }
    public var originalBoardingDate: Date? {
        get { date("originalBoardingDate") }
        set { setDate("originalBoardingDate", newValue) }
    }
    public var originalArrivalDate: Date? {
        get { date("originalArrivalDate") }
        set { setDate("originalArrivalDate", newValue) }
    }
    public var currentDepartureDate: Date? {
        get { date("currentDepartureDate") }
        set { setDate("currentDepartureDate", newValue) }
    }
    public var currentBoardingDate: Date? {
        get { date("currentBoardingDate") }
        set { setDate("currentBoardingDate", newValue) }
    }
    public var currentArrivalDate: Date? {
        get { date("currentArrivalDate") }
        set { setDate("currentArrivalDate", newValue) }
    }
    public var passengerName: PersonName? {
        get { json["passengerName"].flatMap(PersonName.init) }
        set { set("passengerName", newValue?.json) }
    }
    public var boardingGroup: String? {
        get { string("boardingGroup") }
        set { set("boardingGroup", newValue.map(JSONValue.string)) }
    }
    public var confirmationNumber: String? {
        get { string("confirmationNumber") }
        set { set("confirmationNumber", newValue.map(JSONValue.string)) }
    }
    public var ticketFareClass: String? {
        get { string("ticketFareClass") }
        set { set("ticketFareClass", newValue.map(JSONValue.string)) }
    }
    public var membershipProgramName: String? {
        get { string("membershipProgramName") }
        set { set("membershipProgramName", newValue.map(JSONValue.string)) }
    }
    public var membershipProgramNumber: String? {
        get { string("membershipProgramNumber") }
        set { set("membershipProgramNumber", newValue.map(JSONValue.string)) }
    }

    // MARK: Required sets

    /// The tags a poster event ticket needs that these tags lack (for its ``eventType``), in Apple's order; empty
    /// when it can show the poster layout. Field-level tags count too for Wallet: ``PassLinter`` checks the whole pass.
    public var missingPosterEventTicketTags: [String] {
        var required = JSONRules.posterRequiredTags
        if eventType == .sports { required += JSONRules.posterSportsTags }
        if eventType == .livePerformance { required += JSONRules.posterLivePerformanceTags }
        return required.filter { json[$0] == nil }
    }

    /// The tags a semantic boarding pass needs that these tags lack (either time-zone spelling counts).
    public var missingSemanticBoardingPassTags: [String] {
        JSONRules.boardingRequiredTags.filter { tag, aliases in !([tag] + aliases).contains { json[$0] != nil } }.map(\.tag)
    }
}
