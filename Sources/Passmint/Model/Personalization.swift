/// `personalization.json`: what a personalizable (rewards-enrollment) pass asks the user for when they sign up in
/// Wallet. Only passes with an `nfc` dictionary may carry it.
public struct PersonalizationRequest: Sendable, Equatable {
    /// The information Wallet can ask for. Each maps to one or more keys of ``PersonalizationInfo``.
    public enum Field: String, Sendable, CaseIterable {
        /// → `fullName`, `givenName`, `familyName`.
        case name = "PKPassPersonalizationFieldName"
        /// → `postalCode`, `ISOCountryCode`.
        case postalCode = "PKPassPersonalizationFieldPostalCode"
        /// → `emailAddress`.
        case emailAddress = "PKPassPersonalizationFieldEmailAddress"
        /// → `phoneNumber`.
        case phoneNumber = "PKPassPersonalizationFieldPhoneNumber"
    }

    /// The fields the sign-up sheet asks for.
    public var requiredFields: [Field]
    /// A short text shown on the sign-up sheet (localizable through `pass.strings`).
    public var description: String
    /// Optional terms the user accepts; may hold HTML links.
    public var termsAndConditions: String?

    /// The file's name inside a pass.
    public static let fileName = "personalization.json"

    public init(requiredFields: [Field], description: String, termsAndConditions: String? = nil) {
        self.requiredFields = requiredFields
        self.description = description
        self.termsAndConditions = termsAndConditions
    }

    /// Reads `personalization.json`. `file` names it in errors.
    public init(bytes: [UInt8], file: String = Self.fileName) throws(PassmintError) {
        let object = try JSONParser.object(
            bytes, file: file, shape: "{ \"requiredPersonalizationFields\": [...], \"description\": \"…\" }", code: .invalidTemplate)
        var fields: [Field] = []
        for (index, item) in (object["requiredPersonalizationFields"]?.arrayValue ?? []).enumerated() {
            guard let field = item.stringValue.flatMap(Field.init(rawValue:)) else {
                throw PassmintError(
                    .invalidTemplate,
                    "\(file): requiredPersonalizationFields[\(index)] is \(item), not one of \(Field.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            fields.append(field)
        }
        guard !fields.isEmpty else {
            throw PassmintError(
                .invalidTemplate, "\(file): requiredPersonalizationFields is missing or empty; list the fields the sign-up sheet asks for")
        }
        guard let description = object["description"]?.stringValue, !description.isEmpty else {
            throw PassmintError(.invalidTemplate, "\(file): \"description\" is missing; add the text shown on the sign-up sheet")
        }
        self.init(requiredFields: fields, description: description, termsAndConditions: object["termsAndConditions"]?.stringValue)
    }

    /// The file's JSON.
    public var json: JSONValue {
        var object: JSONObject = [
            "requiredPersonalizationFields": .array(requiredFields.map { .string($0.rawValue) }),
            "description": .string(description),
        ]
        if let termsAndConditions { object["termsAndConditions"] = .string(termsAndConditions) }
        return .object(object)
    }
}

/// What Wallet sends to `POST …/personalize` as `requiredPersonalizationInfo` after the user signs up. Every key is
/// optional; which ones come depends on ``PersonalizationRequest/requiredFields``.
public struct PersonalizationInfo: Sendable, Equatable {
    public var fullName: String?
    public var givenName: String?
    public var familyName: String?
    public var emailAddress: String?
    public var postalCode: String?
    public var isoCountryCode: String?
    public var phoneNumber: String?

    /// The JSON keys, in the order Apple documents them.
    public static let keys = ["fullName", "givenName", "familyName", "emailAddress", "postalCode", "ISOCountryCode", "phoneNumber"]
    /// The longest value accepted for one key (in characters).
    public static let maximumLength = 256

    public init(
        fullName: String? = nil, givenName: String? = nil, familyName: String? = nil, emailAddress: String? = nil,
        postalCode: String? = nil, isoCountryCode: String? = nil, phoneNumber: String? = nil
    ) {
        self.fullName = fullName
        self.givenName = givenName
        self.familyName = familyName
        self.emailAddress = emailAddress
        self.postalCode = postalCode
        self.isoCountryCode = isoCountryCode
        self.phoneNumber = phoneNumber
    }

    /// Reads `requiredPersonalizationInfo`. Values must be strings of at most ``maximumLength`` characters; keys
    /// Apple does not document are ignored (a newer Wallet may send more).
    public init(json object: JSONObject) throws(PassmintError) {
        var values: [String: String] = [:]
        for key in Self.keys {
            guard let value = object[key], value != .null else { continue }
            guard let text = value.stringValue else {
                throw PassmintError(.invalidData, "requiredPersonalizationInfo.\(key) must be a string, not \(value.typeName)")
            }
            guard text.count <= Self.maximumLength else {
                throw PassmintError(.invalidData, "requiredPersonalizationInfo.\(key) is longer than \(Self.maximumLength) characters")
            }
            let trimmed = text.trimmingWhitespace
            if !trimmed.isEmpty { values[key] = trimmed }
        }
        self.init(
            fullName: values["fullName"], givenName: values["givenName"], familyName: values["familyName"],
            emailAddress: values["emailAddress"], postalCode: values["postalCode"], isoCountryCode: values["ISOCountryCode"],
            phoneNumber: values["phoneNumber"])
    }

    /// The value of a JSON key of ``keys``.
    public subscript(key: String) -> String? {
        switch key {
        case "fullName": fullName
        case "givenName": givenName
        case "familyName": familyName
        case "emailAddress": emailAddress
        case "postalCode": postalCode
        case "ISOCountryCode": isoCountryCode
        case "phoneNumber": phoneNumber
        default: nil
        }
    }

    /// The name to show: `fullName`, else the given and family names joined.
    public var displayName: String? {
        if let fullName { return fullName }
        let parts = [givenName, familyName].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// The requested fields this information does not answer (an empty array when it answers them all).
    public func missing(_ fields: [PersonalizationRequest.Field]) -> [PersonalizationRequest.Field] {
        fields.filter { field in
            switch field {
            case .name: displayName == nil
            case .postalCode: postalCode == nil
            case .emailAddress: emailAddress == nil
            case .phoneNumber: phoneNumber == nil
            }
        }
    }

    /// The JSON object (only the keys that have a value).
    public var json: JSONValue {
        var object = JSONObject()
        for key in Self.keys { if let value = self[key] { object[key] = .string(value) } }
        return .object(object)
    }

    /// Placeholder values for a template: `personalization.fullName` … `personalization.phoneNumber`, plus
    /// `personalization.displayName`; empty strings for what the user did not give.
    public var placeholderValues: JSONObject {
        var object = JSONObject()
        for key in Self.keys { object["personalization." + key] = .string(self[key] ?? "") }
        object["personalization.displayName"] = .string(displayName ?? "")
        return object
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
