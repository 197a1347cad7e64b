import Foundation
import Passmint

/// One field of a pass (`primaryFields[0]` …) as the mapping uses it: its key, label and value as text.
struct GoogleMappedField: Sendable {
    var key: String
    var label: String?
    var value: JSONValue
    /// The value as Google shows it (numbers with their currency or percent sign, other values as written).
    var text: String
    /// `headerFields`, `primaryFields`, … `backFields`.
    var area: String
    /// The JSON path in pass.json (`storeCard.primaryFields[0]`).
    var path: String
    var object: JSONObject

    static let frontAreas = ["headerFields", "primaryFields", "secondaryFields", "auxiliaryFields"]
    static let backAreas = ["backFields", "additionalInfoFields"]

    /// Every field of the style's dictionary, front areas first.
    static func all(in style: JSONObject, styleKey: String) -> [GoogleMappedField] {
        var fields: [GoogleMappedField] = []
        for area in frontAreas + backAreas {
            for (index, value) in (style[area]?.arrayValue ?? []).enumerated() {
                guard let object = value.objectValue, let key = object["key"]?.stringValue, let fieldValue = object["value"] else {
                    continue
                }
                fields.append(
                    GoogleMappedField(
                        key: key, label: object["label"]?.stringValue, value: fieldValue, text: text(of: fieldValue, in: object),
                        area: area,
                        path: "\(styleKey).\(area)[\(index)]", object: object))
            }
        }
        return fields
    }

    static func text(of value: JSONValue, in field: JSONObject) -> String {
        switch value {
        case .string(let string): return string
        case .number(let number):
            if field["numberStyle"]?.stringValue == "PKNumberStylePercent" {
                return JSONNumber((number.doubleValue * 100 * 1_000_000).rounded() / 1_000_000).text + " %"
            }
            if let currency = field["currencyCode"]?.stringValue { return "\(currency) \(number.text)" }
            return number.text
        case .bool(let bool): return bool ? "true" : "false"
        default: return JSONWriter.string(value, style: .compact)
        }
    }

    var isFront: Bool { Self.frontAreas.contains(area) }

    /// A link when the value is a URL Google opens (`https:`, `http:`, `tel:`, `mailto:`), or the `href` of an
    /// `attributedValue`.
    var link: String? {
        if let attributed = object["attributedValue"]?.stringValue, let range = attributed.range(of: "href=\"") {
            let rest = attributed[range.upperBound...]
            if let end = rest.firstIndex(of: "\"") { return String(rest[..<end]) }
        }
        let trimmed = text.trimmingSpaces
        guard !trimmed.contains(" ") else { return nil }
        let start = trimmed.prefix(8).lowercased()
        return ["https://", "http://", "tel:", "mailto:"].contains { start.hasPrefix($0) } ? trimmed : nil
    }
}
