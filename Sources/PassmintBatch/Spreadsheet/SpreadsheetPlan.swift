public import Passmint

/// How the rows of a data file become a template's data: columns renamed to placeholders (``SpreadsheetColumns``),
/// text converted where the template needs a number, a date or a yes/no (``SpreadsheetFormat``), and columns that
/// must not be empty (`--require`). Problems name the row, the column and the value, in spreadsheet terms.
public struct SpreadsheetPlan: Sendable {
    /// A row that cannot become data: `message` names the row, `reason` is the same for every row with this problem
    /// (for a summary grouped by reason).
    public struct Problem: Error, Sendable, Equatable {
        public var message: String
        public var reason: String
    }

    /// The columns of a CSV file; nil for JSON Lines (whose keys ``mapping`` renames).
    public let columns: SpreadsheetColumns?
    public let mapping: ColumnMapping
    public let format: SpreadsheetFormat
    public let kinds: [String: PassTemplate.PlaceholderKind]
    /// Placeholders whose value must not be empty, where the file carries them: a file of points alone (`passmint
    /// update`) is not refused for the name a project file requires of a members list.
    public let required: [String]
    /// How long values may be where the card shows them: a row with a value no card holds fails; a value the front
    /// of the card cuts is a warning (``cut(_:)``).
    public let lengths: FieldLengths
    /// The names a JSON Lines row keeps (the run's placeholders); its other keys are left out unless the mapping keeps
    /// them (``ColumnMapping/keepsUnusedColumns``). Nil keeps every key. A CSV file's columns decide for themselves.
    let used: Set<String>?
    /// "column" for a CSV file, "key" for JSON Lines.
    let noun: String

    public init(
        columns: SpreadsheetColumns?, mapping: ColumnMapping, format: SpreadsheetFormat, kinds: [String: PassTemplate.PlaceholderKind],
        required: [String], lengths: FieldLengths = FieldLengths(), used: [String]? = nil
    ) {
        self.columns = columns
        self.mapping = mapping
        self.format = format
        self.kinds = kinds
        self.required = required
        self.lengths = lengths
        self.used = mapping.keepsUnusedColumns ? nil : used.map(Set.init)
        noun = columns == nil ? "key" : "column"
    }

    /// The column (or key) a placeholder's value comes from, for messages.
    public func column(of placeholder: String) -> String {
        columns?.column(of: placeholder) ?? mapping.entries.first { $0.placeholder == placeholder }?.column ?? placeholder
    }

    /// A row's values as data for the template, or the first problem with them.
    public func data(_ row: JSONObject, row number: Int) -> Result<JSONObject, Problem> {
        converted(renamed(row), row: number)
    }

    /// A row's values under the placeholders' names (``SpreadsheetColumns/apply(_:)``, or for JSON Lines the keys the
    /// mapping names renamed), not converted.
    public func renamed(_ row: JSONObject) -> JSONObject {
        if let columns { return columns.apply(row) }
        var data = row
        for entry in mapping.entries {
            if let value = row[entry.column] { data[entry.placeholder] = value }
        }
        for entry in mapping.entries where !mapping.entries.contains(where: { $0.placeholder == entry.column }) {
            data[entry.column] = nil
        }
        for value in mapping.values where value.columns.allSatisfy({ row[$0] != nil }) {
            data[value.placeholder] = value.filled(from: row)
        }
        if let used {
            data = JSONObject(data.members.filter { used.contains($0.key) || $0.key.hasPrefix(BatchImageFiles.columnPrefix) })
        }
        return data
    }

    /// The placeholders whose value in a renamed row the front of the card cuts, with where they are shown.
    public func cut(_ renamed: JSONObject) -> [(placeholder: String, front: FieldLengths.Front)] {
        lengths.front.keys.sorted().compactMap { name in
            guard case .string(let text)? = renamed[name], let front = lengths.cut(text, placeholder: name),
                lengths.refusal(text, placeholder: name) == nil  // the row fails: said there
            else { return nil }
            return (name, front)
        }
    }

    /// Renamed values with the text converted where the template needs a number, date or yes/no.
    public func converted(_ renamed: JSONObject, row number: Int) -> Result<JSONObject, Problem> {
        var data = renamed
        for name in required where columns?.carries(name) ?? (renamed[name] != nil) {
            let empty =
                switch data[name] {
                case .string(let text)?: text.trimmingSpaces.isEmpty
                case nil, .null?: true
                default: false
                }
            if empty {
                let column = column(of: name)
                return .failure(
                    Problem(
                        message: "row \(number), \(noun) \(column) is empty, and --require \(name) needs a value there",
                        reason: "\(column) is empty (--require \(name))"))
            }
        }
        for member in data {
            guard case .string(let text) = member.value, let refusal = lengths.refusal(text, placeholder: member.key) else { continue }
            let column = column(of: member.key)
            let named = column == member.key ? column : "\(column) (\(member.key))"
            return .failure(
                Problem(
                    message: "row \(number), \(noun) \(named) holds \(refusal.characters) characters, more than a card can hold "
                        + "(at most \(refusal.limit) there): shorten it",
                    reason: "\(column) is longer than \(refusal.limit) characters"))
        }
        for (name, kind) in kinds.sorted(by: { $0.key < $1.key }) {
            guard case .string(let text)? = data[name] else { continue }
            switch convert(text, kind, name: name, row: number) {
            case .success(let value): data[name] = value
            case .failure(let problem): return .failure(problem)
            }
        }
        return .success(data)
    }

    private func convert(_ text: String, _ kind: PassTemplate.PlaceholderKind, name: String, row: Int) -> Result<JSONValue, Problem> {
        let column = column(of: name)
        let what =
            switch kind {
            case .number: "a number"
            case .date: "a date"
            case .boolean: "yes or no"
            }
        if text.trimmingSpaces.isEmpty {
            return .failure(
                Problem(
                    message: "row \(row), \(noun) \(column) is empty, but the card shows \(what) there: fill it in",
                    reason: "\(column) is empty"))
        }
        let converted: JSONValue? =
            switch kind {
            case .number: format.number(text).map { .number($0) }
            case .date: format.date(text).map { .string($0) }
            case .boolean: format.boolean(text).map { .bool($0) }
            }
        if let converted { return .success(converted) }
        let hint =
            switch kind {
            case .number:
                "write numbers like \(format.numberExample)" + (format.localeName.map { " (--locale \($0))" } ?? " or give --locale")
            case .date:
                "write dates like \(format.dateExample)"
                    + (format.datePatterns.isEmpty ? " or give --locale or --date-format" : " or give --date-format")
            case .boolean: "write yes or no, true or false, 1 or 0"
            }
        return .failure(
            Problem(
                message: "row \(row), \(noun) \(column): \"\(text)\" is not \(what) (\(hint))",
                reason: "\(column) is not \(what)"))
    }
}
