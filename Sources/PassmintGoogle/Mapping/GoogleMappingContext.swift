import Foundation
import Passmint

/// The work of mapping one pass: the class and object being filled, the fields not placed yet, and the findings.
struct GoogleMappingContext {
    let pass: JSONObject
    let style: GoogleWalletStyle
    let styleKey: String
    let files: [PassContents.File]
    /// Where Google fetches an image of the pass, by its path; nil when images are not served.
    let imageURL: (@Sendable (String) -> URL?)?
    let localizer: GoogleLocalizer
    var classBody = JSONObject()
    var objectBody = JSONObject()
    var findings: [Diagnostic] = []
    /// Fields not placed in a slot yet, in pass order.
    var fields: [GoogleMappedField]
    /// Top-level keys of pass.json carried over (or plumbing Google does not need).
    var handledKeys: Set<String> = [
        "formatVersion", "serialNumber", "passTypeIdentifier", "teamIdentifier", "webServiceURL", "authenticationToken", "voided",
    ]
    /// For flights: `<carrier><number>.<departure date>`, so each flight has its own class as Google expects.
    var flightClassSuffix: String?

    init(
        pass: JSONObject, style: GoogleWalletStyle, styleKey: String, files: [PassContents.File], imageURL: (@Sendable (String) -> URL?)?,
        localizer: GoogleLocalizer
    ) {
        self.pass = pass
        self.style = style
        self.styleKey = styleKey
        self.files = files
        self.imageURL = imageURL
        self.localizer = localizer
        fields = GoogleMappedField.all(in: pass[styleKey]?.objectValue ?? JSONObject(), styleKey: styleKey)
        handledKeys.insert(styleKey)
    }

    /// Records that something does not carry over to Google Wallet.
    mutating func report(_ path: String, _ message: String, fix: String, file: String = "pass.json") {
        findings.append(Diagnostic(.warning, "google-not-carried", file: file, path: path, message, fix: fix))
    }

    /// Takes the first field not placed yet whose key (or, failing that, label) is one of `names` (compared without
    /// case), from the front of the pass unless `back` allows the back too.
    mutating func claim(_ names: [String], back: Bool = true) -> GoogleMappedField? {
        let wanted = Set(names.map { $0.lowercased() })
        let index =
            fields.firstIndex { (back || $0.isFront) && wanted.contains($0.key.lowercased()) }
            ?? fields.firstIndex { (back || $0.isFront) && $0.label.map { wanted.contains(localizer.text($0).lowercased()) } == true }
        guard let index else { return nil }
        return fields.remove(at: index)
    }

    /// Takes the first field of `area` not placed yet.
    mutating func claimFirst(in area: String) -> GoogleMappedField? {
        guard let index = fields.firstIndex(where: { $0.area == area }) else { return nil }
        return fields.remove(at: index)
    }

    /// A field's text in the default language (values and labels may be translation keys).
    func text(_ field: GoogleMappedField) -> String { localizer.text(field.text) }

    func localized(_ text: String) -> JSONValue { localizer.localized(text) }

    /// The organization's name as shown (translated when it is a key).
    var organizationName: String { localizer.text(pass["organizationName"]?.stringValue ?? "") }

    /// The name on the card: `logoText`, else the organization's name.
    var cardName: String { pass["logoText"]?.stringValue.map(localizer.text) ?? organizationName }

    /// A text module: `{"id", "header", "body"}`, with localized versions when the pass translates them.
    func textModule(_ field: GoogleMappedField) -> JSONValue {
        var module: JSONObject = ["id": .string(Self.moduleID(field.key)), "body": .string(text(field))]
        if let label = field.label { module["header"] = .string(localizer.text(label)) }
        if let label = field.label, localizer.isTranslated(label) { module["localizedHeader"] = localized(label) }
        if localizer.isTranslated(field.text) { module["localizedBody"] = localized(field.text) }
        return .object(module)
    }

    /// Module ids allow letters, digits and `_`.
    static func moduleID(_ key: String) -> String {
        GoogleWalletIdentifier.underscored(key, keeping: "")
    }

    /// Appends to an array member of the object.
    mutating func appendToObject(_ key: String, _ value: JSONValue) {
        objectBody[key] = .array((objectBody[key]?.arrayValue ?? []) + [value])
    }
}
