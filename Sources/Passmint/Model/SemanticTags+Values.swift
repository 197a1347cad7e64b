import Foundation

/// The structured values semantic tags hold: locations, names, seats, amounts, event types.
extension SemanticTags {
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
            guard let v = SemanticTags.strings(value, Self.keys) else { return nil }
            self.init(givenName: v[1], familyName: v[3], middleName: v[2], namePrefix: v[0], nameSuffix: v[4], nickname: v[5])
        }
        var json: JSONValue { SemanticTags.strings(Self.keys, [namePrefix, givenName, middleName, familyName, nameSuffix, nickname]) }
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
            guard let v = SemanticTags.strings(value, Self.keys) else { return nil }
            self.init(section: v[0], row: v[1], number: v[2], identifier: v[3], type: v[4], description: v[5])
        }
        var json: JSONValue { SemanticTags.strings(Self.keys, [section, row, number, identifier, type, description]) }
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

    /// The members `keys` of an object of strings (``PersonName``, ``Seat``), in their order; nil when `value` is no object.
    static func strings(_ value: JSONValue, _ keys: [String]) -> [String?]? {
        guard value.objectValue != nil else { return nil }
        return keys.map { value[$0]?.stringValue }
    }

    /// An object of strings: `keys` with their `values`, leaving out those without one.
    static func strings(_ keys: [String], _ values: [String?]) -> JSONValue {
        .object(JSONObject(zip(keys, values).compactMap { key, value in value.map { .init(key: key, value: .string($0)) } }))
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
}
