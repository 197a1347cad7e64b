/// Checks the structure of a `pass.json` object: required keys, exactly one style, the JSON type of every key
/// Wallet knows, and the field dictionaries. Unknown keys are left alone (Wallet ignores them).
public enum PassJSONValidator {
    enum Kind: String {
        case string, number, boolean, array, object, any
        func accepts(_ value: JSONValue) -> Bool {
            switch (self, value) {
            case (.string, .string), (.number, .number), (.boolean, .bool), (.array, .array), (.object, .object), (.any, _): true
            default: false
            }
        }
        var article: String { self == .array || self == .object ? "an \(rawValue)" : "a \(rawValue)" }
    }

    /// The five classic styles (and the iOS 27 `posterGeneric`).
    public static let styleKeys = ["boardingPass", "coupon", "eventTicket", "generic", "storeCard"]

    static let requiredStrings = ["passTypeIdentifier", "serialNumber", "teamIdentifier", "organizationName", "description"]

    static let topLevelKinds: [String: Kind] = {
        var kinds: [String: Kind] = [
            "formatVersion": .number, "maxDistance": .number,
            "voided": .boolean, "sharingProhibited": .boolean, "suppressStripShine": .boolean,
            "suppressHeaderDarkening": .boolean, "useAutomaticColors": .boolean,
            "barcodes": .array, "locations": .array, "beacons": .array, "relevantDates": .array,
            "associatedStoreIdentifiers": .array, "auxiliaryStoreIdentifiers": .array, "preferredStyleSchemes": .array,
            "upcomingPassInformation": .array, "featuredActions": .array,
            "barcode": .object, "nfc": .object, "semantics": .object, "posterGeneric": .object, "userInfo": .any,
        ]
        for key in requiredStrings + [
            "logoText", "backgroundColor", "foregroundColor", "labelColor", "stripColor", "footerBackgroundColor",
            "expirationDate", "relevantDate", "webServiceURL", "authenticationToken", "appLaunchURL", "groupingIdentifier",
            "eventLogoText", "logoSymbolName",
        ] { kinds[key] = .string }
        for key in Pass.posterURLKeys + Pass.semanticBoardingPassKeys where key != "upcomingPassInformation" { kinds[key] = .string }
        for key in styleKeys { kinds[key] = .object }
        return kinds
    }()

    static let fieldArrays = ["headerFields", "primaryFields", "secondaryFields", "auxiliaryFields", "backFields", "additionalInfoFields"]

    static let fieldKinds: [String: Kind] = [
        "key": .string, "label": .string, "changeMessage": .string, "attributedValue": .any, "dataDetectorTypes": .array,
        "dateStyle": .string, "timeStyle": .string, "isRelative": .boolean, "ignoresTimeZone": .boolean,
        "currencyCode": .string, "numberStyle": .string, "textAlignment": .string, "row": .number, "semantics": .object,
    ]

    /// Every structural problem in `pass`. Errors mean Wallet would refuse the pass.
    /// With `isTemplate`, `passTypeIdentifier` and `teamIdentifier` may be absent (they come from the certificate) and
    /// a value that is exactly one `{{placeholder}}` passes any type check.
    public static func diagnostics(for pass: JSONObject, isTemplate: Bool = false) -> [Diagnostic] {
        var rules = JSONRules(pass: pass, isTemplate: isTemplate, options: LintOptions())
        for rule in JSONRule.structural { rules.run(rule) }
        return rules.found
    }
}
