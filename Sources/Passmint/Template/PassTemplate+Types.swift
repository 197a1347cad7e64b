import Foundation

extension PassTemplate {
    /// The JSON type a placeholder must take where the template uses it.
    public enum PlaceholderKind: String, Sendable {
        case number, boolean
        /// An ISO 8601 date and time (a field with `dateStyle` or `timeStyle`, `relevantDate`, a semantic date): a
        /// string in JSON, read from spreadsheet dates by `SpreadsheetPlan` (PassmintBatch).
        case date
    }

    /// Placeholders used as a whole value where Wallet needs a number or a boolean (a field with `numberStyle` or
    /// `currencyCode`, `latitude`, `voided`, …). CSV values are text; ``typed(_:)`` converts these.
    static func placeholderKinds(in pass: JSONValue) -> [String: PlaceholderKind] {
        var kinds: [String: PlaceholderKind] = [:]
        func note(_ value: JSONValue?, _ kind: PlaceholderKind) {
            guard let value, case .string(let text) = value, let pieces = Placeholders.pieces(of: text), pieces.count == 1,
                case .placeholder(let name) = pieces[0]
            else { return }
            kinds[name] = kind
        }
        guard let object = pass.objectValue else { return kinds }
        for member in object {
            switch PassJSONValidator.topLevelKinds[member.key] {
            case .number?: note(member.value, .number)
            case .boolean?: note(member.value, .boolean)
            default: if member.key == "expirationDate" || member.key == "relevantDate" { note(member.value, .date) }
            }
        }
        for location in object["locations"]?.arrayValue ?? [] {
            for key in ["latitude", "longitude", "altitude"] { note(location[key], .number) }
        }
        for beacon in object["beacons"]?.arrayValue ?? [] {
            for key in ["major", "minor"] { note(beacon[key], .number) }
        }
        for identifier in (object["associatedStoreIdentifiers"]?.arrayValue ?? []) + (object["auxiliaryStoreIdentifiers"]?.arrayValue ?? [])
        {
            note(identifier, .number)
        }
        note(object["nfc"]?["requiresAuthentication"], .boolean)
        var semantics = [object["semantics"]]
        for style in PassJSONValidator.styleKeys {
            guard let fields = object[style]?.objectValue else { continue }
            for arrayName in PassJSONValidator.fieldArrays {
                for field in fields[arrayName]?.arrayValue ?? [] {
                    if field["numberStyle"] != nil || field["currencyCode"] != nil { note(field["value"], .number) }
                    if field["dateStyle"] != nil || field["timeStyle"] != nil { note(field["value"], .date) }
                    note(field["row"], .number)
                    note(field["isRelative"], .boolean)
                    note(field["ignoresTimeZone"], .boolean)
                    semantics.append(field["semantics"])
                }
            }
        }
        for case .object(let tags)? in semantics {
            for member in tags {
                switch JSONRules.tagKinds[member.key] {
                case .number?: note(member.value, .number)
                case .boolean?: note(member.value, .boolean)
                case .date?: note(member.value, .date)
                case .location?: for key in ["latitude", "longitude"] { note(member.value[key], .number) }
                default: break
                }
            }
        }
        return kinds
    }

    /// Converts text values of ``placeholderKinds`` to numbers and booleans (`"1250"` → `1250`, `"true"`/`"yes"`/`"1"` →
    /// `true`). Values that do not convert stay text, so lint reports them with their field.
    public func typed(_ data: JSONObject) -> JSONObject {
        var output = data
        for (name, kind) in placeholderKinds {
            guard case .string(let text)? = data[name] else { continue }
            let trimmed = text.trimmingSpaces
            switch kind {
            case .number:
                if let value = try? JSONParser.value(Array(trimmed.utf8)), case .number = value { output[name] = value }
            case .boolean:
                switch trimmed.lowercased() {
                case "true", "yes", "1": output[name] = .bool(true)
                case "false", "no", "0": output[name] = .bool(false)
                default: break
                }
            case .date: break
            }
        }
        return output
    }
}
