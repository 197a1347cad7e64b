public import Passmint

/// A data file's columns matched to the names a run needs (the template's placeholders, `serialNumber`, …): from a
/// ``ColumnMapping`` first (its entries, then its values set for every row), then by name (case, accents, spaces, `_`
/// and `-` ignored). Columns that match nothing are left out of the data (what the card does not use is not stored),
/// unless the mapping keeps them (``ColumnMapping/keepsUnusedColumns``); `image:<slot>` columns are always passed on.
public struct SpreadsheetColumns: Sendable {
    /// How a column came to feed a placeholder.
    public enum Reason: Sendable, Equatable {
        /// A mapping entry names it.
        case mapped
        /// The header is the placeholder's name.
        case sameName
        /// The header is the placeholder's name but for case, accents, spaces, `_` or `-`.
        case similarName
    }

    public struct Assignment: Sendable, Equatable {
        public var column: String
        public var placeholder: String
        public var reason: Reason
    }

    /// Every column that feeds a placeholder, in the file's column order (a mapped column before its name matches).
    public let assignments: [Assignment]
    /// Columns that feed nothing the run knows, in the file's order.
    public let unused: [String]
    /// The mapping's values set for every row that apply to this file (a project file's naming a column the file
    /// lacks are skipped).
    public let values: [ColumnMapping.Value]
    /// Mapping entries skipped because the file lacks their column (a project or mapping file's), for messages.
    public let skipped: [ColumnMapping.Entry]
    /// Unused columns are passed on under their own name (``ColumnMapping/keepsUnusedColumns``).
    let keepsUnused: Bool
    /// The `names` no column feeds, in the order given.
    public let missing: [String]
    /// Mapped columns whose own name is one of the `names` no other column feeds: they feed that name too.
    let alsoOwnName: [String]

    /// Matches `columns` (a header, in order) to `names`. `mappingSource` names where the mapping came from in errors
    /// (`--map`, a file). Throws when the mapping names a column the file lacks or a name the run does not know.
    public init(columns: [String], names: [String], mapping: ColumnMapping, mappingSource: String = "--map") throws(PassmintError) {
        var assignments: [Assignment] = []
        var fed: Set<String> = []
        let entries = mapping.entries.filter { !$0.optional || columns.contains($0.column) }
        for entry in entries {
            guard columns.contains(entry.column) else {
                throw Self.noSuchColumn(
                    entry.column, named: mappingSource, in: columns, otherwise: "write the column's name as its header does")
            }
            try Self.claim(
                entry.placeholder, names: names, fed: &fed,
                unknown: "\(mappingSource) maps \(entry.column) to \"\(entry.placeholder)\", which the template does not use ",
                twice: "\(mappingSource) maps two columns to \(entry.placeholder): keep one of them")
            assignments.append(Assignment(column: entry.column, placeholder: entry.placeholder, reason: .mapped))
        }
        let values = try Self.values(of: mapping, columns: columns, names: names, fed: &fed, mappingSource: mappingSource)
        let mappedColumns = Set(entries.map(\.column) + values.flatMap(\.columns))
        var unused: [String] = []
        for column in columns where !mappedColumns.contains(column) {
            if names.contains(column), !fed.contains(column) {
                fed.insert(column)
                assignments.append(Assignment(column: column, placeholder: column, reason: .sameName))
                continue
            }
            let folded = ColumnMapping.folded(column)
            let candidates = names.filter { !fed.contains($0) && ColumnMapping.folded($0) == folded }
            if candidates.count == 1, !columns.contains(candidates[0]) {
                fed.insert(candidates[0])
                assignments.append(Assignment(column: column, placeholder: candidates[0], reason: .similarName))
            } else {
                unused.append(column)
            }
        }
        let order = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        self.assignments = assignments.enumerated().sorted {
            (order[$0.element.column] ?? 0, $0.offset) < (order[$1.element.column] ?? 0, $1.offset)
        }.map(\.element)
        self.unused = unused
        self.values = values
        self.skipped = mapping.entries.filter { !columns.contains($0.column) }
        self.keepsUnused = mapping.keepsUnusedColumns
        let own = mappedColumns.filter { names.contains($0) && !fed.contains($0) }
        self.alsoOwnName = columns.filter { own.contains($0) }
        fed.formUnion(own)
        self.missing = names.filter { !fed.contains($0) }
    }

    /// The mapping's values that apply to a file of these columns, checked: a value the command line gives must name
    /// columns of the file, each for a placeholder of the run that no mapped column feeds.
    private static func values(
        of mapping: ColumnMapping, columns: [String], names: [String], fed: inout Set<String>, mappingSource: String
    ) throws(PassmintError) -> [ColumnMapping.Value] {
        var values: [ColumnMapping.Value] = []
        for value in mapping.values {
            let absent = value.columns.filter { !columns.contains($0) }
            if value.optional && !absent.isEmpty { continue }
            let given = "\(value.source) \(value.placeholder)=\(value.shown)"
            if let column = absent.first {
                throw Self.noSuchColumn(column, named: given, in: columns, otherwise: "write {{Column}} as the column's header is written")
            }
            try claim(
                value.placeholder, names: names, fed: &fed, unknown: "\(given): the template has no placeholder \(value.placeholder) ",
                twice: "\(given): \(mappingSource) maps a column to \(value.placeholder) too: keep one of them")
            values.append(value)
        }
        return values
    }

    /// A mapping (`by`) naming a column the file does not have: its columns, and the one it probably meant.
    private static func noSuchColumn(_ column: String, named by: String, in columns: [String], otherwise hint: String) -> PassmintError {
        let similar = columns.first { ColumnMapping.folded($0) == ColumnMapping.folded(column) }
        let shown = columns.prefix(12).map { MessageText.cut($0) }.joined(separator: ", ") + (columns.count > 12 ? ", …" : "")
        return PassmintError(
            .invalidData,
            "\(by) names the column \"\(column)\", which the file does not have (its columns: \(shown))"
                + (similar.map { ": did you mean \($0)?" } ?? ": \(hint)"))
    }

    /// Marks `placeholder` fed; throws `unknown` (with the placeholder it probably meant, or those the run knows) when
    /// the run does not know it, `twice` when something feeds it already.
    private static func claim(
        _ placeholder: String, names: [String], fed: inout Set<String>, unknown: String, twice: String
    ) throws(PassmintError) {
        guard names.contains(placeholder) || placeholder.hasPrefix(BatchImageFiles.columnPrefix) else {
            let similar = names.first { ColumnMapping.folded($0) == ColumnMapping.folded(placeholder) }
            throw PassmintError(
                .invalidData, unknown + (similar.map { "(did you mean \($0)?)" } ?? "(it uses \(names.joined(separator: ", ")))"))
        }
        guard fed.insert(placeholder).inserted else { throw PassmintError(.invalidData, twice) }
    }

    /// The placeholder a column feeds first, for messages; nil when it feeds none.
    public func placeholder(ofColumn column: String) -> String? {
        assignments.first { $0.column == column }?.placeholder
    }

    /// Whether a row of this file holds a value for `name`: a column feeds it, or has its name.
    public func carries(_ name: String) -> Bool {
        assignments.contains { $0.placeholder == name } || values.contains { $0.placeholder == name } || unused.contains(name)
            || alsoOwnName.contains(name)
    }

    /// The column feeding `placeholder`, for messages: the columns a combination names (`Vorname + Nachname`); the
    /// placeholder's own name when no column feeds it.
    public func column(of placeholder: String) -> String {
        if let column = assignments.first(where: { $0.placeholder == placeholder })?.column { return column }
        if let value = values.first(where: { $0.placeholder == placeholder }), !value.columns.isEmpty {
            return value.columns.joined(separator: " + ")
        }
        return placeholder
    }

    /// A row keyed by column turned into one keyed by placeholder, with the values set for every row. Unused columns
    /// are left out unless kept (``ColumnMapping/keepsUnusedColumns``), but for `image:<slot>` columns.
    public func apply(_ row: JSONObject) -> JSONObject {
        var output = JSONObject()
        for assignment in assignments {
            if let value = row[assignment.column] { output[assignment.placeholder] = value }
        }
        for value in values { output[value.placeholder] = value.filled(from: row) }
        for column in unused where output[column] == nil && (keepsUnused || column.hasPrefix(BatchImageFiles.columnPrefix)) {
            if let value = row[column] { output[column] = value }
        }
        for column in alsoOwnName where output[column] == nil {
            if let value = row[column] { output[column] = value }
        }
        return output
    }

    /// The lines a run prints before it starts: one per column, "Name → memberName (--map)".
    public func describe(mappingSource: String = "--map") -> [String] {
        var lines: [String] = []
        for assignment in assignments {
            let why =
                switch assignment.reason {
                case .mapped: mappingSource
                case .sameName: "same name"
                case .similarName: "same name but for case or accents"
                }
            lines.append("\(assignment.column) → \(assignment.placeholder) (\(why))")
        }
        for value in values {
            let from = value.columns.isEmpty ? "" : value.columns.joined(separator: ", ") + " → "
            lines.append("\(from)\(value.placeholder) = \(value.shown) (\(value.source))")
        }
        for column in unused where !column.hasPrefix(BatchImageFiles.columnPrefix) {
            lines.append(
                keepsUnused
                    ? "\(column): no placeholder of that name; kept in the data under its own name"
                    : "\(column): not used (no placeholder of that name), not stored")
        }
        return lines
    }
}
