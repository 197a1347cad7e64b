import Foundation
import Passmint

/// One field as the preview draws it: label and value already localized and formatted.
struct PreviewField: Sendable, Equatable {
    var key: String
    var label: String
    var value: String
    /// CSS `text-align` from `textAlignment` (`start` for natural or none).
    var alignment: String
    /// `row` of an event ticket's auxiliary field (0 or 1).
    var row: Int
    /// `attributedValue` as written (a back field may hold `<a href='…'>…</a>` links), localized.
    var attributedValue: String? = nil
    /// `dataDetectorTypes`: nil for Wallet's default (all of them).
    var detectors: [DataDetectorType]? = nil
}

/// Everything the preview draws of a pass, read leniently from its `pass.json` (a key of the wrong type is skipped;
/// lint reports it), with Wallet's rules applied: field limits, images per style, colours, barcode, layout kind.
struct PreviewCard: Sendable {
    var style: Pass.Style?
    var kind: PreviewLayout.Kind = .classic
    var organizationName = ""
    var description = ""
    var logoText: String?
    var background: PreviewColor?
    var foreground: PreviewColor?
    var label: PreviewColor?
    var header: [PreviewField] = []
    var primary: [PreviewField] = []
    var secondary: [PreviewField] = []
    var auxiliary: [PreviewField] = []
    var back: [PreviewField] = []
    var additionalInfo: [PreviewField] = []
    var transitType: TransitType?
    var barcodes: [Barcode] = []
    var voided = false
    var expired = false
    var semantics = JSONObject()
    var limits = PreviewLayout.Limits(header: 3, primary: 1, secondary: 4, auxiliary: 4, secondaryAndAuxiliary: nil)

    init(pass: JSONObject, strings: PreviewStrings, formatter: PreviewFormatter, diagnostics: [Diagnostic], iOS27: Bool = false) {
        style = Pass.Style.allCases.first { pass[$0.rawValue]?.objectValue != nil }
        organizationName = strings.localized(pass["organizationName"]?.stringValue ?? "")
        description = strings.localized(pass["description"]?.stringValue ?? "")
        logoText = pass["logoText"]?.stringValue.map(strings.localized)
        background = PreviewColor(pass["backgroundColor"]?.stringValue)
        foreground = PreviewColor(pass["foregroundColor"]?.stringValue)
        label = PreviewColor(pass["labelColor"]?.stringValue)
        voided = pass["voided"]?.boolValue == true
        if let expiry = pass["expirationDate"]?.stringValue, let date = W3CDate.parse(expiry) { expired = date <= formatter.now }
        semantics = pass["semantics"]?.objectValue ?? JSONObject()
        barcodes = Self.barcodes(pass).map { barcode in
            var localized = barcode
            localized.altText = barcode.altText.map(strings.localized)
            return localized
        }
        guard let style, let fields = pass[style.rawValue]?.objectValue else { return }
        transitType = fields["transitType"]?.stringValue.flatMap(TransitType.init(rawValue:))
        let schemes = (pass["preferredStyleSchemes"]?.arrayValue ?? []).compactMap(\.stringValue)
        kind = PreviewLayout.kind(style: style, schemes: schemes, diagnostics: diagnostics)
        let square = PreviewLayout.barcode(barcodes, watch: false, iOS27: iOS27).map { [.qr, .aztec].contains($0.format) } ?? false
        limits = PreviewLayout.limits(style: style, squareBarcode: square)
        func read(_ key: String) -> [PreviewField] {
            (fields[key]?.arrayValue ?? []).compactMap { value in
                guard let field = value.objectValue else { return nil }
                return Self.field(field, strings: strings, formatter: formatter)
            }
        }
        header = Array(read("headerFields").prefix(limits.header))
        primary = Array(read("primaryFields").prefix(limits.primary))
        secondary = read("secondaryFields")
        auxiliary = read("auxiliaryFields")
        if let combined = limits.secondaryAndAuxiliary {
            secondary = Array(secondary.prefix(combined))
            auxiliary = Array(auxiliary.prefix(combined - secondary.count))
        } else if style == .eventTicket {
            secondary = Array(secondary.prefix(limits.secondary))
            auxiliary =
                Array(auxiliary.filter { $0.row == 0 }.prefix(limits.auxiliary))
                + Array(auxiliary.filter { $0.row == 1 }.prefix(limits.auxiliary))
        } else {
            secondary = Array(secondary.prefix(limits.secondary))
            auxiliary = Array(auxiliary.prefix(limits.auxiliary))
        }
        back = read("backFields")
        additionalInfo = read("additionalInfoFields")
    }

    /// A field dictionary as drawn; nil without a `key` (lint reports it).
    static func field(_ field: JSONObject, strings: PreviewStrings, formatter: PreviewFormatter) -> PreviewField? {
        guard let key = field["key"]?.stringValue else { return nil }
        let alignment: String
        switch TextAlignment(rawValue: field["textAlignment"]?.stringValue ?? "") {
        case .left?: alignment = "left"
        case .center?: alignment = "center"
        case .right?: alignment = "right"
        case .natural?, nil: alignment = "start"
        }
        return PreviewField(
            key: key, label: field["label"]?.stringValue.map(strings.localized) ?? "",
            value: formatter.value(of: field, strings: strings), alignment: alignment, row: field["row"]?.numberValue?.intValue ?? 0,
            attributedValue: field["attributedValue"]?.stringValue.map(strings.localized),
            detectors: field["dataDetectorTypes"]?.arrayValue.map { $0.compactMap { $0.stringValue.flatMap(DataDetectorType.init) } })
    }

    /// `barcodes`, or the deprecated `barcode` when there is no array; entries that are not barcodes are skipped.
    static func barcodes(_ pass: JSONObject) -> [Barcode] {
        let list = pass["barcodes"]?.arrayValue ?? pass["barcode"].map { [$0] } ?? []
        return list.compactMap { value in
            guard let format = value["format"]?.stringValue.flatMap(Barcode.Format.init(rawValue:)),
                let message = value["message"]?.stringValue
            else { return nil }
            return Barcode(
                format: format, message: message, messageEncoding: value["messageEncoding"]?.stringValue ?? "iso-8859-1",
                altText: value["altText"]?.stringValue)
        }
    }

    /// A semantic tag's text (strings, numbers, or a person's name object).
    func tag(_ name: String) -> String? {
        switch semantics[name] {
        case .string(let text)?: return text
        case .number(let number)?: return number.description
        case .object(let object)?:
            let parts = ["givenName", "middleName", "familyName"].compactMap { object[$0]?.stringValue }
            return parts.isEmpty ? nil : parts.joined(separator: " ")
        case .array(let items)?:
            let texts = items.compactMap(\.stringValue)
            return texts.isEmpty ? nil : texts.joined(separator: ", ")
        default: return nil
        }
    }
}
