import Foundation
public import Passmint

/// Values set for every row (`--set`, `"set"` in a project file): for placeholders no column feeds. A text value may
/// combine columns: `memberName={{Vorname}} {{Nachname}}`.
extension ColumnMapping {
    public struct Value: Sendable, Equatable {
        public var placeholder: String
        /// A constant, or a text whose `{{Column}}` are filled from the row's cells.
        public var value: JSONValue
        /// Where it was given, for messages: `--set`, `"set" in passmint.json`.
        public var source: String
        /// Skipped when the file lacks a column it names (a project file's, which serves several files); one given on
        /// the command line must name columns of the file.
        public var optional: Bool

        public init(placeholder: String, value: JSONValue, source: String = "--set", optional: Bool = false) {
            self.placeholder = placeholder
            self.value = value
            self.source = source
            self.optional = optional
        }

        /// The columns a text value names (`{{Vorname}} {{Nachname}}`: Vorname, Nachname); none for a constant.
        public var columns: [String] {
            guard case .string(let text) = value, let pieces = Placeholders.pieces(of: text) else { return [] }
            var names: [String] = []
            for case .placeholder(let name) in pieces where !names.contains(name) { names.append(name) }
            return names
        }

        /// The value for a row keyed by column: a combination's text with each `{{Column}}` replaced by its cell (the
        /// cell's own value when the text is one column alone), spaces at either end trimmed; a constant as it is.
        public func filled(from row: JSONObject) -> JSONValue {
            guard case .string(let text) = value, let pieces = Placeholders.pieces(of: text) else { return value }
            if pieces.count == 1, case .placeholder(let column) = pieces[0] { return row[column] ?? .string("") }
            var result = ""
            for piece in pieces {
                switch piece {
                case .text(let text): result += text
                case .placeholder(let column): result += row[column].flatMap(Placeholders.text(of:)) ?? ""
                }
            }
            return .string(result.trimmingSpaces)
        }

        /// How a run's column list shows it: `"{{Vorname}} {{Nachname}}"`, `250`.
        var shown: String { JSONWriter.string(value, style: .compact) }
    }

    /// `name=text` (a text, which may combine columns: `memberName={{Vorname}} {{Nachname}}`) or `name:=json` (a typed
    /// value: `points:=0`), as `--set` takes it.
    public static func value(parsing assignment: String, source: String = "--set") throws(PassmintError) -> Value {
        if let range = assignment.range(of: ":="), !assignment[..<range.lowerBound].contains("="), range.lowerBound > assignment.startIndex
        {
            let name = String(assignment[..<range.lowerBound])
            do {
                return Value(placeholder: name, value: try JSONParser.value(Array(assignment[range.upperBound...].utf8)), source: source)
            } catch {
                throw PassmintError(
                    .invalidData, "\(source) \(assignment): the value after := must be JSON (\(error)); use name=text for a text")
            }
        }
        guard let equals = assignment.firstIndex(of: "="), equals > assignment.startIndex else {
            throw PassmintError(
                .invalidData,
                "\(source) \(assignment): expected placeholder=value (nfcMessage=MLC, memberName={{Vorname}} {{Nachname}}) or placeholder:=json"
            )
        }
        return Value(
            placeholder: String(assignment[..<equals]), value: .string(String(assignment[assignment.index(after: equals)...])),
            source: source
        )
    }

    /// A project file's `"set"`: placeholder → a text (which may combine columns), a number or yes/no; skipped for
    /// files that lack a column it names.
    public static func values(object: JSONObject, source: String) throws(PassmintError) -> [Value] {
        var values: [Value] = []
        for member in object.members {
            switch member.value {
            case .string, .number, .bool: break
            default:
                throw PassmintError(
                    .invalidData,
                    "\(source): the value of \"\(member.key)\" must be a text (\"MLC\", \"{{Vorname}} {{Nachname}}\"), a number or true/false, not \(member.value.typeName)"
                )
            }
            values.append(Value(placeholder: member.key, value: member.value, source: source, optional: true))
        }
        return values
    }
}
