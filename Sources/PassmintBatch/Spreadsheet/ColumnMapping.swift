import Foundation
public import Passmint

/// Which spreadsheet column feeds which placeholder, as a person writes it: `Mitgliedsnummer=serialNumber,Name=memberName`
/// (`--map`), or a mapping file (a JSON object `{"Mitgliedsnummer": "serialNumber", …}`, or one `Column=placeholder`
/// per line). One column may feed several placeholders (`Nummer=serialNumber,Nummer=memberId`, or in JSON
/// `{"Nummer": ["serialNumber", "memberId"]}`). Placeholders no column feeds take a value set for every row
/// (``values``: a constant, or a combination of columns such as `"{{Vorname}} {{Nachname}}"`).
public struct ColumnMapping: Sendable, Equatable {
    /// One `column=placeholder` entry, in the order given.
    public struct Entry: Sendable, Equatable {
        public var column: String
        public var placeholder: String
        /// Skipped when the file has no such column (entries of a project or mapping file, which serve several
        /// files); an entry given on the command line must name a column of the file.
        public var optional: Bool

        public init(column: String, placeholder: String, optional: Bool = false) {
            self.column = column
            self.placeholder = placeholder
            self.optional = optional
        }
    }

    public var entries: [Entry]
    /// Values set for every row (`--set`, `"set"` in a project file), in the order given.
    public var values: [Value] = []
    /// Columns that feed no placeholder are kept under their own name (`--keep-columns`); otherwise they are left out
    /// of the data, so that what the card does not use is not stored.
    public var keepsUnusedColumns = false

    public init(_ entries: [Entry] = [], values: [Value] = []) {
        self.entries = entries
        self.values = values
    }

    /// `Column=placeholder,Column=placeholder`; `source` names where the text came from in errors (`--map`).
    public init(parsing text: String, source: String = "--map") throws(PassmintError) {
        entries = []
        for part in text.split(separator: ",", omittingEmptySubsequences: true) {
            try add(String(part), source: source)
        }
    }

    /// A mapping file: a JSON object (column → placeholder), or lines `Column=placeholder` (blank lines and lines
    /// starting with `#` skipped).
    public init(file: String) throws(PassmintError) {
        let bytes = try FileIO.readText(file, what: "mapping file")
        entries = []
        if bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{") {
            let object = try JSONParser.object(
                bytes, file: "mapping file \(file)", shape: "{ \"Column\": \"placeholder\", … }", code: .invalidData)
            self = try ColumnMapping(object: object, source: "mapping file \(file)")
            return
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw PassmintError(.invalidData, "mapping file \(file) is not UTF-8 text: save it as UTF-8")
        }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            try add(trimmed, source: "mapping file \(file), line \(index + 1)")
        }
        for index in entries.indices { entries[index].optional = true }
    }

    private mutating func add(_ pair: String, source: String) throws(PassmintError) {
        guard let equals = pair.firstIndex(of: "=") else {
            throw PassmintError(
                .invalidData, "\(source): \"\(pair)\" is not Column=placeholder (e.g. Mitgliedsnummer=serialNumber)")
        }
        let column = pair[..<equals].trimmingCharacters(in: .whitespaces)
        let placeholder = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !column.isEmpty, !placeholder.isEmpty else {
            throw PassmintError(
                .invalidData, "\(source): \"\(pair)\" needs a column before = and a placeholder after it (e.g. Name=memberName)")
        }
        entries.append(Entry(column: column, placeholder: placeholder))
    }

    /// A JSON object of column → placeholder, or column → [placeholder, …] (one column feeding several): a mapping
    /// file's or a project file's `"map"`; its entries are skipped for files that lack the column. `source` names where
    /// it came from in errors. A value that is a combination (`"{{Vorname}} {{Nachname}}"`) is refused with where it
    /// goes: `"set"`, placeholder first.
    public init(object: JSONObject, source: String) throws(PassmintError) {
        entries = []
        for member in object.members {
            let names: [JSONValue] = member.value.arrayValue ?? [member.value]
            guard !names.isEmpty else {
                throw PassmintError(
                    .invalidData,
                    "\(source): \"\(member.key)\" maps to no placeholder: give one, or a list [\"serialNumber\", \"memberId\"]")
            }
            for name in names {
                guard let placeholder = name.stringValue, !placeholder.isEmpty else {
                    throw PassmintError(
                        .invalidData,
                        "\(source): the value of \"\(member.key)\" must be a placeholder name in quotes (or a list of them), not \(name.typeName)"
                    )
                }
                if Placeholders.pieces(of: placeholder) != nil || Placeholders.pieces(of: member.key) != nil {
                    let (name, text) = Placeholders.pieces(of: member.key) != nil ? (placeholder, member.key) : (member.key, placeholder)
                    throw PassmintError(
                        .invalidData,
                        "\(source): \"\(member.key)\": \"\(placeholder)\" combines columns, which a mapping cannot: a mapping is "
                            + "{ \"Column\": \"placeholder\" }; a value made of columns goes under \"set\", placeholder first: "
                            + "\"set\": { \"\(name)\": \"\(text)\" } (or --set \(name)=\"\(text)\")")
                }
                entries.append(Entry(column: member.key, placeholder: placeholder, optional: true))
            }
        }
    }

    /// The mapping with `other`'s entries and values added (a command line's over a project file's: an entry or value
    /// for the same placeholder replaces the earlier one).
    public func merged(with other: ColumnMapping) -> ColumnMapping {
        let replaced = Set(other.entries.map(\.placeholder) + other.values.map(\.placeholder))
        var merged = ColumnMapping(
            entries.filter { !replaced.contains($0.placeholder) } + other.entries,
            values: values.filter { !replaced.contains($0.placeholder) } + other.values)
        merged.keepsUnusedColumns = keepsUnusedColumns || other.keepsUnusedColumns
        return merged
    }

    /// A name as headers are compared when no mapping names them: case, accents, spaces, `_` and `-` ignored
    /// (`Member Name`, `member_name` and `MEMBERNAME` all match `memberName`; `Punkte` matches `punkte`).
    public static func folded(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .filter { !$0.isWhitespace && $0 != "_" && $0 != "-" }
    }
}
