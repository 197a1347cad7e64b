/// Rules on the files of a pass: images (presence, PNG validity, scales, sizes, use by the style), localizations
/// and personalization.
struct FileRules {
    let files: [PassContents.File]
    let pass: JSONObject
    var found: [Diagnostic] = []

    init(files: [PassContents.File], pass: JSONObject) {
        self.files = files
        self.pass = pass
    }

    mutating func error(_ code: String, _ file: String, _ message: String, fix: String, path: String = "") {
        found.append(Diagnostic(.error, code, file: file, path: path, message, fix: fix))
    }

    mutating func warning(_ code: String, _ file: String, _ message: String, fix: String, path: String = "") {
        found.append(Diagnostic(.warning, code, file: file, path: path, message, fix: fix))
    }

    /// A recommended size in points: exact, or a maximum.
    struct Size {
        var width: Int
        var height: Int
        var isMaximum: Bool
    }

    var style: String? { PassJSONValidator.styleKeys.first { pass[$0] != nil } }

    var isPoster: Bool {
        (pass["preferredStyleSchemes"]?.arrayValue ?? []).contains { $0.stringValue == "posterEventTicket" }
    }

    func recommendedSize(_ name: String) -> Size? { Self.recommendedSize(name, style: style) }

    /// The recommended size of an image slot in points for a pass style (the strip of an event ticket is shorter).
    static func recommendedSize(_ name: String, style: String?) -> Size? {
        switch name {
        case "icon": Size(width: 38, height: 38, isMaximum: false)
        case "logo": Size(width: 160, height: 50, isMaximum: true)
        case "primaryLogo": Size(width: 126, height: 30, isMaximum: true)
        case "secondaryLogo": Size(width: 135, height: 12, isMaximum: true)
        case "background": Size(width: 180, height: 220, isMaximum: false)
        case "artwork": Size(width: 358, height: 448, isMaximum: false)
        case "strip":
            style == "eventTicket" ? Size(width: 375, height: 98, isMaximum: false) : Size(width: 375, height: 144, isMaximum: false)
        case "footer": Size(width: 286, height: 15, isMaximum: true)
        case "thumbnail": Size(width: 90, height: 90, isMaximum: true)
        case "personalizationLogo": Size(width: 150, height: 40, isMaximum: false)
        default: nil
        }
    }

    func imagesUsed(by style: String) -> Set<String> {
        var names: Set<String> = ["icon", "logo"]
        switch style {
        case "boardingPass": names.insert("footer")
        case "coupon", "storeCard": names.insert("strip")
        case "eventTicket":
            names.formUnion(["strip", "background", "thumbnail"])
            if isPoster { names.formUnion(["artwork", "primaryLogo", "secondaryLogo"]) }
        case "generic": names.insert("thumbnail")
        default: break
        }
        if files.contains(where: { $0.path == "personalization.json" }) { names.insert("personalizationLogo") }
        return names
    }

    mutating func run() {
        var images: [(file: PassContents.File, name: ImageName, info: PNGInfo)] = []
        var strings: [String: [StringsFile.Entry]] = [:]
        var localizations: Set<String> = []
        for file in files {
            let components = file.path.split(separator: "/")
            if components.count > 1 {
                if components.count == 2, components[0].hasSuffix(".lproj") {
                    localizations.insert(String(components[0].dropLast(6)))
                } else {
                    error(
                        "file-location", file.path, "Wallet only reads files at the top level and in <language>.lproj folders",
                        fix: "move or remove the file")
                    continue
                }
            }
            if let name = ImageName(path: file.path) {
                do {
                    images.append((file, name, try PNGInfo(bytes: file.bytes, file: file.path)))
                } catch {
                    self.error("image-not-png", file.path, error.message, fix: "export it again as PNG")
                }
            } else if file.path.hasSuffix(".lproj/pass.strings") {
                do {
                    strings[String(components[0].dropLast(6))] = try StringsFile.parse(file.bytes)
                } catch {
                    self.error(
                        "strings-syntax", file.path, "pass.strings cannot be read: \(error)",
                        fix: "write one \"key\" = \"value\"; per line, in UTF-8 or UTF-16 with BOM")
                }
            } else if file.path == "personalization.json" {
                personalization(file)
            } else {
                error(
                    "file-unknown", file.path,
                    "Wallet does not read this file, and anyone holding the pass can: it is not shipped (a template holding it "
                        + "does not load)",
                    fix: "remove it from the pass")
            }
        }
        checkImages(images)
        let names = Set(images.map(\.name.name))
        checkPosterImages(names: names)
        checkLogoSymbol(names: names)
        checkLocalizations(images: images, strings: strings, localizations: localizations)
        checkChangeMessages(strings: strings)
    }

    /// A `changeMessage` that is a localization key must have `%@` in every translation (and be a key somewhere).
    mutating func checkChangeMessages(strings: [String: [StringsFile.Entry]]) {
        for usage in localizableTexts()
        where usage.path.hasSuffix(".changeMessage") && !usage.text.contains("%@")
            && JSONRules.looksLikeLocalizationKey(usage.text) && !isWholePlaceholder(.string(usage.text))
        {
            let translations = strings.sorted { $0.key < $1.key }.compactMap { language, entries in
                entries.last { $0.key == usage.text }.map { (language, $0.value) }
            }
            if translations.isEmpty {
                error(
                    "field-change-message", "pass.json", "changeMessage has no %@, so Wallet shows no change notification",
                    fix: "include %@ where the new value goes, e.g. \"Gate changed to %@\"", path: usage.path)
            }
            for (language, text) in translations where !text.contains("%@") {
                error(
                    "field-change-message", "\(language).lproj/pass.strings",
                    "the translation of \"\(usage.text)\" (the changeMessage at \(usage.path)) has no %@, so Wallet shows no change notification",
                    fix: "include %@ where the new value goes, e.g. \"Gate changed to %@\"", path: usage.text)
            }
        }
    }

    mutating func checkLocalizations(
        images: [(file: PassContents.File, name: ImageName, info: PNGInfo)], strings: [String: [StringsFile.Entry]],
        localizations: Set<String>
    ) {
        guard localizations.count > 1 else { return }
        var imageSets: [String: Set<String>] = [:]
        for localization in localizations { imageSets[localization] = [] }
        for image in images {
            if let localization = image.name.localization {
                imageSets[localization, default: []].insert(String(image.file.path.split(separator: "/").last!))
            }
        }
        let allImages = imageSets.values.reduce(Set<String>()) { $0.union($1) }
        for localization in localizations.sorted() {
            for missing in allImages.subtracting(imageSets[localization] ?? []).sorted() {
                warning(
                    "localization-image-missing", "\(localization).lproj/\(missing)",
                    "\(missing) exists in other localizations but not in \(localization).lproj",
                    fix: "add \(localization).lproj/\(missing), so every localization has the same images and resolutions")
            }
        }
        let allKeys = strings.values.reduce(Set<String>()) { $0.union($1.map(\.key)) }
        let used = localizableTexts().filter { allKeys.contains($0.text) }
        for localization in localizations.sorted() {
            guard let entries = strings[localization] else {
                if !allKeys.isEmpty {
                    let shown = Array(Set(used.map(\.text))).sorted()
                    warning(
                        "localization-strings-missing", "\(localization).lproj/pass.strings",
                        "\(localization).lproj has no pass.strings"
                            + (shown.isEmpty ? "" : ", so it shows the raw keys \(shown.map { "\"\($0)\"" }.joined(separator: ", "))"),
                        fix: "add pass.strings with the same keys as the other localizations")
                }
                continue
            }
            let keys = Set(entries.map(\.key))
            // Keys pass.json uses first (they show as raw keys), then the rest.
            let missingKeys = allKeys.subtracting(keys)
            var reported: Set<String> = []
            for usage in used where missingKeys.contains(usage.text) && reported.insert(usage.text).inserted {
                warning(
                    "localization-key-missing", "\(localization).lproj/pass.strings",
                    "no translation for \"\(usage.text)\", which pass.json uses at \(usage.path): \(localization) devices show the raw key",
                    fix: "add \"\(usage.text)\" = \"…\"; to \(localization).lproj/pass.strings (or to \"\(localization)\" in strings.json)")
            }
            for missing in missingKeys.subtracting(reported).sorted() {
                warning(
                    "localization-key-missing", "\(localization).lproj/pass.strings", "no translation for \"\(missing)\"",
                    fix: "add \"\(missing)\" = \"…\"; to \(localization).lproj/pass.strings")
            }
        }
    }

    /// The localizable texts of `pass.json` with their paths: `organizationName`, `description`, `logoText`,
    /// `eventLogoText`, the `relevantText` of locations and beacons, the barcodes' `altText`, and every field's `label`,
    /// `value` and `changeMessage`. A text equal to a `pass.strings` key is replaced by its translation on the device.
    func localizableTexts() -> [(text: String, path: String)] {
        var texts: [(String, String)] = []
        for key in ["organizationName", "description", "logoText", "eventLogoText"] {
            if let text = pass[key]?.stringValue { texts.append((text, key)) }
        }
        for key in ["locations", "beacons"] {
            for (index, place) in (pass[key]?.arrayValue ?? []).enumerated() {
                if let text = place["relevantText"]?.stringValue { texts.append((text, "\(key)[\(index)].relevantText")) }
            }
        }
        for (index, barcode) in (pass["barcodes"]?.arrayValue ?? []).enumerated() {
            if let text = barcode["altText"]?.stringValue { texts.append((text, "barcodes[\(index)].altText")) }
        }
        if let text = pass["barcode"]?["altText"]?.stringValue { texts.append((text, "barcode.altText")) }
        for style in PassJSONValidator.styleKeys {
            guard let fields = pass[style]?.objectValue else { continue }
            for arrayName in PassJSONValidator.fieldArrays {
                for (index, field) in (fields[arrayName]?.arrayValue ?? []).enumerated() {
                    for key in ["label", "value", "changeMessage"] {
                        if let text = field[key]?.stringValue { texts.append((text, "\(style).\(arrayName)[\(index)].\(key)")) }
                    }
                }
            }
        }
        return texts
    }

    static let personalizationFieldValues: Set<String> = [
        "PKPassPersonalizationFieldName", "PKPassPersonalizationFieldPostalCode", "PKPassPersonalizationFieldEmailAddress",
        "PKPassPersonalizationFieldPhoneNumber",
    ]

    mutating func personalization(_ file: PassContents.File) {
        if pass["nfc"] == nil {
            error(
                "personalization-without-nfc", file.path, "personalization.json only works on passes with an nfc dictionary",
                fix: "add the nfc dictionary, or remove personalization.json")
        }
        guard let json = try? JSONParser.value(file.bytes), let object = json.objectValue else {
            error(
                "personalization-json", file.path, "personalization.json is not a JSON object",
                fix: "write { \"requiredPersonalizationFields\": [...], \"description\": \"…\" }")
            return
        }
        let fields = object["requiredPersonalizationFields"]?.arrayValue ?? []
        if fields.isEmpty {
            error(
                "personalization-fields", file.path, "requiredPersonalizationFields is missing or empty",
                fix: "list at least one of \(Self.personalizationFieldValues.sorted().joined(separator: ", "))",
                path: "requiredPersonalizationFields")
        }
        for (index, field) in fields.enumerated() where !Self.personalizationFieldValues.contains(field.stringValue ?? "") {
            error(
                "personalization-fields", file.path, "\(field) is not a personalization field",
                fix: "use one of \(Self.personalizationFieldValues.sorted().joined(separator: ", "))",
                path: "requiredPersonalizationFields[\(index)]")
        }
        if object["description"]?.stringValue == nil {
            error(
                "personalization-description", file.path, "description is missing", fix: "add a \"description\" shown on the sign-up sheet",
                path: "description")
        }
        if let terms = object["termsAndConditions"], terms.stringValue == nil {
            error(
                "key-type", file.path, "termsAndConditions must be a string", fix: "write it in double quotes", path: "termsAndConditions")
        }
        if !files.contains(where: { ImageName(path: $0.path)?.name == "personalizationLogo" }) {
            warning(
                "personalization-logo-missing", "personalizationLogo.png", "the sign-up sheet has no logo",
                fix: "add personalizationLogo.png (150×40), @2x and @3x")
        }
    }
}
