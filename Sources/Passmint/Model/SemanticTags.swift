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
