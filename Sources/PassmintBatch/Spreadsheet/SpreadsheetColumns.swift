public import Passmint

/// A data file's columns matched to the names a run needs (the template's placeholders, `serialNumber`, …): from a
/// ``ColumnMapping`` first, then by name (case, accents, spaces, `_` and `-` ignored). Columns that match nothing are
/// passed on under their own name.
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
                let similar = columns.first { ColumnMapping.folded($0) == ColumnMapping.folded(entry.column) }
                throw PassmintError(
                    .invalidData,
                    "\(mappingSource) names the column \"\(entry.column)\", which the file does not have "
                        + "(its columns: \(columns.prefix(12).map { MessageText.cut($0) }.joined(separator: ", "))\(columns.count > 12 ? ", …" : ""))"
                        + (similar.map { ": did you mean \($0)?" } ?? ": write the column's name as its header does"))
            }
            guard names.contains(entry.placeholder) || entry.placeholder.hasPrefix("image:") else {
                let similar = names.first { ColumnMapping.folded($0) == ColumnMapping.folded(entry.placeholder) }
                throw PassmintError(
                    .invalidData,
                    "\(mappingSource) maps \(entry.column) to \"\(entry.placeholder)\", which the template does not use "
                        + (similar.map { "(did you mean \($0)?)" } ?? "(it uses \(names.joined(separator: ", ")))"))
            }
            guard fed.insert(entry.placeholder).inserted else {
                throw PassmintError(
                    .invalidData, "\(mappingSource) maps two columns to \(entry.placeholder): keep one of them")
            }
            assignments.append(Assignment(column: entry.column, placeholder: entry.placeholder, reason: .mapped))
        }
        let mappedColumns = Set(entries.map(\.column))
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
        let own = mappedColumns.filter { names.contains($0) && !fed.contains($0) }
        self.alsoOwnName = columns.filter { own.contains($0) }
        fed.formUnion(own)
        self.missing = names.filter { !fed.contains($0) }
    }

    /// The placeholder a column feeds first, for messages; nil when it feeds none.
    public func placeholder(ofColumn column: String) -> String? {
        assignments.first { $0.column == column }?.placeholder
    }

    /// Whether a row of this file holds a value for `name`: a column feeds it, or has its name.
    public func carries(_ name: String) -> Bool {
        assignments.contains { $0.placeholder == name } || unused.contains(name) || alsoOwnName.contains(name)
    }

    /// The column feeding `placeholder`, for messages (the placeholder's own name when no column feeds it).
    public func column(of placeholder: String) -> String {
        assignments.first { $0.placeholder == placeholder }?.column ?? placeholder
    }

    /// A row keyed by column turned into one keyed by placeholder (unused columns keep their name).
    public func apply(_ row: JSONObject) -> JSONObject {
        var output = JSONObject()
        for assignment in assignments {
            if let value = row[assignment.column] { output[assignment.placeholder] = value }
        }
        for column in unused + alsoOwnName where output[column] == nil {
            if let value = row[column] { output[column] = value }
        }
        return output
    }

    /// The lines a run prints before it starts: one per column, "Name → memberName (--map)". With `unusedSent`
    /// (an update with no template to check names against), a column matching nothing is said to go under its own
    /// name, as it does, instead of "not used".
    public func describe(mappingSource: String = "--map", unusedSent: Bool = false) -> [String] {
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
        for column in unused {
            lines.append(
                unusedSent
                    ? "\(column) → \(column) (sent under its own name: give --template to check it against the template)"
                    : "\(column): not used (no placeholder of that name)")
        }
        return lines
    }
}
