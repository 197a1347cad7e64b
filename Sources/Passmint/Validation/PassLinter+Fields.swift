extension JSONRules {
    static let dateStyles: Set<String> = Set(DateStyle.allCases.map(\.rawValue))
    static let numberStyles: Set<String> = Set(NumberStyle.allCases.map(\.rawValue))
    static let alignments: Set<String> = Set(TextAlignment.allCases.map(\.rawValue))
    static let detectors: Set<String> = Set(DataDetectorType.allCases.map(\.rawValue))
    static let transitTypes: Set<String> = Set(TransitType.allCases.map(\.rawValue))

    mutating func fields() {
        guard let style, let fields = pass[style]?.objectValue else { return }
        if let transit = fields["transitType"] {
            if style != "boardingPass" {
                error("transit-type-not-allowed", "\(style).transitType", "transitType belongs to boarding passes only", fix: "remove it")
            } else if let text = transit.stringValue, !Self.transitTypes.contains(text), !(isTemplate && isWholePlaceholder(transit)) {
                error(
                    "transit-type-invalid", "boardingPass.transitType", "\"\(text)\" is not a transit type",
                    fix: "use one of \(Self.transitTypes.sorted().joined(separator: ", "))")
            }
        }
        for arrayName in PassJSONValidator.fieldArrays {
            for (index, element) in (fields[arrayName]?.arrayValue ?? []).enumerated() {
                guard let field = element.objectValue else { continue }
                check(field: field, arrayName: arrayName, style: style, path: { "\(style).\(arrayName)[\(index)]" })
            }
        }
        counts(fields: fields, style: style)
    }

    /// `path` makes the field's JSON path, only for a finding.
    private mutating func check(field: JSONObject, arrayName: String, style: String, path: () -> String) {
        let value = field["value"]
        let placeholder = isTemplate && value.map(isWholePlaceholder) == true
        let isNumber = value?.numberValue != nil
        let dateKeys = ["dateStyle", "timeStyle", "isRelative", "ignoresTimeZone"].filter { field[$0] != nil }
        let isDate = !dateKeys.isEmpty && value?.stringValue.flatMap(W3CDate.parse) != nil

        // A changeMessage that is a localization key is checked against its translations (FileRules.checkChangeMessages).
        if let message = field["changeMessage"]?.stringValue, !message.contains("%@"), !Self.looksLikeLocalizationKey(message) {
            error(
                "field-change-message", "\(path()).changeMessage", "changeMessage has no %@, so Wallet shows no change notification",
                fix: "include %@ where the new value goes, e.g. \"Gate changed to %@\"")
        }
        for key in ["currencyCode", "numberStyle"] where field[key] != nil && !isNumber && !placeholder {
            let shown = value?.stringValue.map { "the string \"\($0)\"" } ?? value?.typeName ?? "missing"
            error(
                "field-number-style", "\(path()).\(key)", "\(key) applies to numeric values, but the value is \(shown)",
                fix: "make the value a JSON number (no quotes), or remove \(key)")
        }
        for key in dateKeys where !isDate && !placeholder {
            let shown = value?.stringValue.map { "\"\($0)\"" } ?? value?.typeName ?? "missing"
            error(
                "field-date-style", "\(path()).\(key)",
                "\(key) applies to dates, but the value \(shown) is not a W3C date with a time zone",
                fix: "write the value like 2026-12-24T19:30:00+01:00, or remove \(key)")
        }
        if let text = value?.stringValue, !placeholder, field["dateStyle"] == nil, field["timeStyle"] == nil,
            W3CDate.looksLikeDate(text), text.count > 10, W3CDate.parse(text) == nil
        {
            warning(
                "date-format", "\(path()).value", "\"\(text)\" looks like a date but has no time zone, so Wallet shows it as text",
                fix: "add a time zone (…+01:00 or …Z) and a dateStyle")
        }
        for (key, allowed) in [
            ("dateStyle", Self.dateStyles), ("timeStyle", Self.dateStyles), ("numberStyle", Self.numberStyles),
            ("textAlignment", Self.alignments),
        ] {
            if let text = field[key]?.stringValue, !allowed.contains(text) {
                error(
                    "field-enum", "\(path()).\(key)", "\"\(text)\" is not a valid \(key)",
                    fix: "use one of \(allowed.sorted().joined(separator: ", "))")
            }
        }
        if let code = field["currencyCode"]?.stringValue, code.count != 3 || !code.allSatisfy({ $0.isASCII && $0.isUppercase }) {
            error(
                "field-currency-code", "\(path()).currencyCode", "\"\(code)\" is not an ISO 4217 currency code",
                fix: "use three capital letters, e.g. EUR")
        }
        if field["textAlignment"] != nil && (arrayName == "primaryFields" || arrayName == "backFields") {
            error("field-text-alignment", "\(path()).textAlignment", "textAlignment is not allowed on \(arrayName)", fix: "remove it")
        }
        if let row = field["row"] {
            if style != "eventTicket" || arrayName != "auxiliaryFields" {
                error("field-row", "\(path()).row", "row is only allowed on event ticket auxiliary fields", fix: "remove it")
            } else if let number = row.numberValue, number.intValue != 0 && number.intValue != 1 {
                error("field-row", "\(path()).row", "row must be 0 or 1", fix: "use 0 for the first row, 1 for the second")
            }
        }
        if let detectors = field["dataDetectorTypes"] {
            if arrayName != "backFields" {
                error("field-data-detectors", "\(path()).dataDetectorTypes", "dataDetectorTypes only work on back fields", fix: "remove it")
            }
            for (index, detector) in (detectors.arrayValue ?? []).enumerated() {
                if let text = detector.stringValue, !Self.detectors.contains(text) {
                    error(
                        "field-enum", "\(path()).dataDetectorTypes[\(index)]", "\"\(text)\" is not a data detector type",
                        fix: "use one of \(Self.detectors.sorted().joined(separator: ", "))")
                }
            }
        }
    }

    /// A single word of letters, digits, `_`, `.` and `-` with a capital letter or an underscore, such as
    /// `GATE_CHANGED`: a `pass.strings` key rather than text.
    static func looksLikeLocalizationKey(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-") }
            && text.contains { $0.isUppercase || $0 == "_" }
    }

    private mutating func counts(fields: JSONObject, style: String) {
        func count(_ name: String) -> Int { fields[name]?.arrayValue?.count ?? 0 }
        var limits: [(String, Int)] = [("headerFields", 3), ("primaryFields", style == "boardingPass" ? 2 : 1), ("secondaryFields", 4)]
        switch style {
        case "boardingPass": limits.append(("auxiliaryFields", 5))
        case "eventTicket":
            let auxiliary = fields["auxiliaryFields"]?.arrayValue ?? []
            let second = auxiliary.filter { $0["row"]?.numberValue?.intValue == 1 }.count
            if auxiliary.count - second > 4 || second > 4 {
                warning(
                    "field-count", "eventTicket.auxiliaryFields", "more than 4 auxiliary fields in one row; Wallet drops the extra ones",
                    fix: "keep at most 4 per row (use \"row\": 1 for a second row)")
            }
        default: limits.append(("auxiliaryFields", 4))
        }
        for (name, limit) in limits where count(name) > limit {
            warning(
                "field-count", "\(style).\(name)", "\(count(name)) \(name); a \(style) shows at most \(limit), the rest are dropped",
                fix: "move the extra fields to backFields")
        }
        if ["coupon", "storeCard", "generic"].contains(style),
            let format = pass["barcodes"]?.arrayValue?.first?["format"]?.stringValue,
            format == "PKBarcodeFormatQR" || format == "PKBarcodeFormatAztec",
            count("secondaryFields") + count("auxiliaryFields") > 4
        {
            warning(
                "field-count", "\(style).secondaryFields",
                "with a square barcode a \(style) shows at most 4 secondary and auxiliary fields together",
                fix: "move fields to backFields or use a PDF417 barcode")
        }
    }
}
