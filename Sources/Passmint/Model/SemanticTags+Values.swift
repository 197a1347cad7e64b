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
}
