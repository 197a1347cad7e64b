public import Foundation

/// The fields of a pass style (`boardingPass`, `coupon`, …).
public struct PassFields: Codable, Sendable, Hashable {
    public var headerFields: [PassField]?
    public var primaryFields: [PassField]?
    public var secondaryFields: [PassField]?
    public var auxiliaryFields: [PassField]?
    public var backFields: [PassField]?
    /// iOS 18+: "Additional Info" below poster passes.
    public var additionalInfoFields: [PassField]?
    /// Boarding passes only, and required there.
    public var transitType: TransitType?
    /// Keys this model does not know, kept as they are.
    public var additionalProperties = JSONObject()

    public init(
        headerFields: [PassField]? = nil, primaryFields: [PassField]? = nil, secondaryFields: [PassField]? = nil,
        auxiliaryFields: [PassField]? = nil, backFields: [PassField]? = nil, transitType: TransitType? = nil
    ) {
        self.headerFields = headerFields
        self.primaryFields = primaryFields
        self.secondaryFields = secondaryFields
        self.auxiliaryFields = auxiliaryFields
        self.backFields = backFields
        self.transitType = transitType
    }

    package static let modelKeys: Set<String> = [
        "headerFields", "primaryFields", "secondaryFields", "auxiliaryFields", "backFields", "additionalInfoFields", "transitType",
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        headerFields = try c.optional("headerFields")
        primaryFields = try c.optional("primaryFields")
        secondaryFields = try c.optional("secondaryFields")
        auxiliaryFields = try c.optional("auxiliaryFields")
        backFields = try c.optional("backFields")
        additionalInfoFields = try c.optional("additionalInfoFields")
        transitType = try c.optional("transitType")
        additionalProperties = try c.unknownMembers(known: Self.modelKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.put(headerFields, "headerFields")
        try c.put(primaryFields, "primaryFields")
        try c.put(secondaryFields, "secondaryFields")
        try c.put(auxiliaryFields, "auxiliaryFields")
        try c.put(backFields, "backFields")
        try c.put(additionalInfoFields, "additionalInfoFields")
        try c.put(transitType, "transitType")
        try c.put(unknown: additionalProperties)
    }
}

/// `transitType` of a boarding pass.
public enum TransitType: String, Codable, Sendable, CaseIterable {
    case air = "PKTransitTypeAir"
    case boat = "PKTransitTypeBoat"
    case bus = "PKTransitTypeBus"
    case generic = "PKTransitTypeGeneric"
    case train = "PKTransitTypeTrain"
}

/// A field value: Wallet accepts a string, a number, or an ISO 8601 date with a time zone.
public enum FieldValue: Codable, Sendable, Hashable {
    case string(String)
    case number(Double)
    case date(Date)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            // A date stays a string when read back: Wallet decides by the field's date style.
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let string): try container.encode(string)
        case .number(let number):
            if number == number.rounded(), abs(number) < 1e15 { try container.encode(Int64(number)) } else { try container.encode(number) }
        case .date(let date):
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            try container.encode(formatter.string(from: date))
        }
    }
}

public enum DateStyle: String, Codable, Sendable, CaseIterable {
    case none = "PKDateStyleNone"
    case short = "PKDateStyleShort"
    case medium = "PKDateStyleMedium"
    case long = "PKDateStyleLong"
    case full = "PKDateStyleFull"
}

public enum NumberStyle: String, Codable, Sendable, CaseIterable {
    case decimal = "PKNumberStyleDecimal"
    case percent = "PKNumberStylePercent"
    case scientific = "PKNumberStyleScientific"
    case spellOut = "PKNumberStyleSpellOut"
}

public enum TextAlignment: String, Codable, Sendable, CaseIterable {
    case left = "PKTextAlignmentLeft"
    case center = "PKTextAlignmentCenter"
    case right = "PKTextAlignmentRight"
    case natural = "PKTextAlignmentNatural"
}

public enum DataDetectorType: String, Codable, Sendable, CaseIterable {
    case phoneNumber = "PKDataDetectorTypePhoneNumber"
    case link = "PKDataDetectorTypeLink"
    case address = "PKDataDetectorTypeAddress"
    case calendarEvent = "PKDataDetectorTypeCalendarEvent"
}

/// One field dictionary (`PassFieldContent`).
public struct PassField: Codable, Sendable, Hashable {
    /// Unique across the whole pass.
    public var key: String
    public var value: FieldValue
    public var label: String?
    public var attributedValue: FieldValue?
    /// Must contain `%@`.
    public var changeMessage: String?
    /// Back fields only.
    public var dataDetectorTypes: [DataDetectorType]?
    public var dateStyle: DateStyle?
    public var timeStyle: DateStyle?
    public var isRelative: Bool?
    public var ignoresTimeZone: Bool?
    /// ISO 4217; numeric values only.
    public var currencyCode: String?
    public var numberStyle: NumberStyle?
    public var textAlignment: TextAlignment?
    /// Event ticket auxiliary fields only: 0 or 1.
    public var row: Int?
    public var semantics: SemanticTags?
    /// Keys this model does not know, kept as they are.
    public var additionalProperties = JSONObject()

    public init(key: String, value: FieldValue, label: String? = nil) {
        self.key = key
        self.value = value
        self.label = label
    }

    package static let modelKeys: Set<String> = [
        "key", "value", "label", "attributedValue", "changeMessage", "dataDetectorTypes", "dateStyle", "timeStyle", "isRelative",
        "ignoresTimeZone", "currencyCode", "numberStyle", "textAlignment", "row", "semantics",
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        key = try c.required("key")
        value = try c.required("value")
        label = try c.optional("label")
        attributedValue = try c.optional("attributedValue")
        changeMessage = try c.optional("changeMessage")
        dataDetectorTypes = try c.optional("dataDetectorTypes")
        dateStyle = try c.optional("dateStyle")
        timeStyle = try c.optional("timeStyle")
        isRelative = try c.optional("isRelative")
        ignoresTimeZone = try c.optional("ignoresTimeZone")
        currencyCode = try c.optional("currencyCode")
        numberStyle = try c.optional("numberStyle")
        textAlignment = try c.optional("textAlignment")
        row = try c.optional("row")
        semantics = try (c.optional("semantics") as JSONValue?).flatMap(\.objectValue).map(SemanticTags.init)
        additionalProperties = try c.unknownMembers(known: Self.modelKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        try c.put(key, "key")
        try c.put(value, "value")
        try c.put(label, "label")
        try c.put(attributedValue, "attributedValue")
        try c.put(changeMessage, "changeMessage")
        try c.put(dataDetectorTypes, "dataDetectorTypes")
        try c.put(dateStyle, "dateStyle")
        try c.put(timeStyle, "timeStyle")
        try c.put(isRelative, "isRelative")
        try c.put(ignoresTimeZone, "ignoresTimeZone")
        try c.put(currencyCode, "currencyCode")
        try c.put(numberStyle, "numberStyle")
        try c.put(textAlignment, "textAlignment")
        try c.put(row, "row")
        try c.put(semantics.map { JSONValue.object($0.json) }, "semantics")
        try c.put(unknown: additionalProperties)
    }
}
