public import Passmint

/// What a batch checks before any row runs, so that a problem of the whole file is said once and nothing is written:
/// the columns (every placeholder without one, at once), the certificate against the template's pass type, the
/// file's encoding and duplicated serial numbers; empty values in columns the card shows become warnings.
public struct BatchPlan: Sendable {
    public let spreadsheet: SpreadsheetPlan
    /// Lines to print before the run: the empty values found, with their rows.
    public let warnings: [String]
    /// The columns and what each feeds, one line each ("Name → memberName (--map)"); empty for JSON Lines.
    public let mappingLines: [String]
}

extension BatchRunner {
    /// The names a data file's columns may feed: the template's placeholders, the serial number and the token.
    var knownNames: [String] {
        var names = template.placeholders
        for name in ["serialNumber", "authenticationToken"] where !names.contains(name) { names.append(name) }
        return names
    }

    /// The mapping with `--serial-column` folded in (its column feeds serialNumber).
    var effectiveMapping: ColumnMapping {
        guard options.serialColumn != "serialNumber", !options.mapping.entries.contains(where: { $0.placeholder == "serialNumber" })
        else { return options.mapping }
        var mapping = options.mapping
        mapping.entries.append(ColumnMapping.Entry(column: options.serialColumn, placeholder: "serialNumber"))
        return mapping
    }

    /// Reads the whole file once and checks it as a whole; throws the file's problems in one message.
    public func plan(for input: BatchInput) throws(PassmintError) -> BatchPlan {
        let mapping = effectiveMapping
        let mappingSource = options.serialColumn != "serialNumber" ? "\(options.mappingSource) or --serial-column" : options.mappingSource
        var columns: SpreadsheetColumns?
        if let header = input.columns {
            columns = try SpreadsheetColumns(columns: header, names: knownNames, mapping: mapping, mappingSource: mappingSource)
        }
        let plan = SpreadsheetPlan(
            columns: columns, mapping: mapping, format: options.format, kinds: template.placeholderKinds, required: options.required,
            lengths: FieldLengths(template: template), used: knownNames)
        try checkWebService()
        // The encoding first (a file read wrongly explains everything after), then the columns, then the rows.
        let scan = try scan(input, plan: plan)
        if let columns, let header = input.columns {
            try checkMissing(columns, header: header, path: input.path, mappingSource: mappingSource)
        }
        try checkPassType()
        for name in options.required where !knownNames.contains(name) {
            throw PassmintError(
                .invalidData,
                "--require \(name): the template has no placeholder \(name) (it uses \(template.placeholders.joined(separator: ", ")))")
        }
        if let duplicates = scan.duplicates { throw duplicates }
        return BatchPlan(spreadsheet: plan, warnings: scan.warnings, mappingLines: columns?.describe(mappingSource: mappingSource) ?? [])
    }

    /// An http web service makes every pass fail its lint: said once, before any row.
    private func checkWebService() throws(PassmintError) {
        let given = options.webServiceURL != nil
        guard let url = options.webServiceURL ?? template.passJSON["webServiceURL"]?.stringValue, Placeholders.pieces(of: url) == nil,
            url.lowercased().hasPrefix("http://"), !builder.options.lint.allowHTTPWebService
        else { return }
        throw PassmintError(
            .invalidData,
            """
            \(given ? "the public URL \(url) (--public-url or \"publicURL\" in passmint.json)" : "the template's webServiceURL \(url)") \
            uses http, and Wallet takes only https web services (http works only on development devices): give the https \
            address of `passmint serve`, or --allow-http for a development service; nothing was issued
            """)
    }

    /// Every placeholder without a column, at once; with the mapping entries that were meant for them and name no
    /// column of the file.
    private func checkMissing(_ columns: SpreadsheetColumns, header: [String], path: String, mappingSource: String) throws(PassmintError) {
        let needsToken = options.webServiceURL != nil || template.passJSON["webServiceURL"] != nil
        let absent = columns.missing.filter { $0 != "authenticationToken" || (!needsToken && template.placeholders.contains($0)) }
        guard !absent.isEmpty else { return }
        var hints: [String] = []
        for entry in columns.skipped where absent.contains(entry.placeholder) {
            let similar = header.first { ColumnMapping.folded($0) == ColumnMapping.folded(entry.column) }
            hints.append(
                " \(mappingSource) maps the column \"\(entry.column)\" to \(entry.placeholder), but the file has no such column"
                    + (similar.map { ": did you mean \"\($0)\"?" } ?? "."))
        }
        for entry in columns.skipped where absent.contains(entry.column) && header.contains(entry.placeholder) {
            hints.append(
                " \(mappingSource) maps \"\(entry.column)\" to \"\(entry.placeholder)\": the wrong way round, the column comes first "
                    + "(\"\(entry.placeholder)\": \"\(entry.column)\").")
        }
        let cut = header.prefix(12).map { MessageText.cut($0) }  // a header name of a megabyte is not printed whole
        let shown = header.count > 12 ? cut.joined(separator: ", ") + ", …" : cut.joined(separator: ", ")
        let serialHint =
            absent.contains("serialNumber")
            ? " The serial numbers' column: --map \"Column=serialNumber\" (or --serial-column Column, \"serialColumn\" in passmint.json)."
            : ""
        throw PassmintError(
            .invalidData,
            """
            data file \(path) has no column for \(absent.count == 1 ? "the placeholder" : "\(absent.count) placeholders") \
            \(absent.joined(separator: ", ")) (its columns: \(shown)): add \(absent.count == 1 ? "that column" : "these columns"), \
            or say which column feeds each with --map "Column=placeholder,…" (or "map" in passmint.json), or give a value \
            for every row with --set placeholder=value (or "set").\(serialHint)\(hints.joined())
            """)
    }

    /// The template's pass type against the certificates: a pass signed with another type's certificate is refused
    /// by Wallet, so say so before anything is signed.
    private func checkPassType() throws(PassmintError) {
        guard let type = template.passJSON["passTypeIdentifier"]?.stringValue, Placeholders.pieces(of: type) == nil else { return }
        let identities = builder.identities
        guard !identities.passTypeIdentifiers.contains(type) else { return }
        let known = identities.passTypeIdentifiers.map { "\"\($0)\"" }.joined(separator: ", ")
        throw PassmintError(
            .identityMismatch,
            """
            the template's passTypeIdentifier is "\(type)", but \(identities.source) holds a certificate for \
            \(known.isEmpty ? "no pass type" : known): sign with the Pass Type ID certificate of "\(type)" (--certificates \
            folder), or change passTypeIdentifier in \(template.folder)/pass.json
            """)
    }

    /// Reads every row once: an unreadable encoding is refused; duplicated serials are returned as the error to
    /// refuse the file with, and empty values in columns the card shows as warnings.
    private func scan(_ input: BatchInput, plan: SpreadsheetPlan) throws(PassmintError) -> (warnings: [String], duplicates: PassmintError?)
    {
        var rows = try input.reopened()
        var serials: [String: Int] = [:]
        var duplicates: [(serial: String, rows: [Int])] = []
        let shown = template.shownPlaceholders.filter { plan.kinds[$0] == nil && !plan.required.contains($0) && $0 != "serialNumber" }
        var empty: [String: RowTally] = [:]
        var long: [String: (tally: RowTally, front: FieldLengths.Front)] = [:]
        while let row = rows.next() {
            let values: JSONObject
            switch row.values {
            case .failure(let error):
                if CSVReader.isEncodingProblem(error.message) {
                    throw PassmintError(
                        .invalidData,
                        "data file \(input.path) cannot be read as \(rows.encodingName) (line \(row.line) is the first that is not): \(error.message)"
                    )
                }
                continue
            case .success(let object): values = plan.renamed(object)
            }
            var serial = ""
            switch values["serialNumber"] {
            case .string(let text): serial = text.trimmingSpaces
            case .number(let number): serial = number.text
            default: break
            }
            if !serial.isEmpty {
                if let first = serials[serial] {
                    if let index = duplicates.firstIndex(where: { $0.serial == serial }) {
                        duplicates[index].rows.append(row.number)
                    } else {
                        duplicates.append((serial, [first, row.number]))
                    }
                } else {
                    serials[serial] = row.number
                }
            }
            for name in shown {
                guard case .string(let text)? = values[name], text.trimmingSpaces.isEmpty else { continue }
                empty[name, default: RowTally()].add(row.number)
            }
            for (name, front) in plan.cut(values) {
                long[name, default: (RowTally(), front)].tally.add(row.number)
            }
        }
        var refusal: PassmintError?
        if !duplicates.isEmpty {
            let listed = duplicates.prefix(5).map { "\($0.serial) (rows \($0.rows.map(String.init).joined(separator: ", ")))" }
            refusal = PassmintError(
                .invalidData,
                """
                data file \(input.path) gives \(duplicates.count == 1 ? "a serial number" : "\(duplicates.count) serial numbers") to \
                more than one row: \(listed.joined(separator: "; "))\(duplicates.count > 5 ? "; …" : ""). Every card needs its own \
                serial number (column \(plan.column(of: "serialNumber"))): fix these rows, then run again; nothing was issued
                """)
        }
        func named(_ name: String) -> String {
            let column = plan.column(of: name)
            return column == name ? name : "\(column) (\(name))"
        }
        var warnings: [String] = shown.compactMap { name in
            guard let entry = empty[name] else { return nil }
            return
                "warning: column \(named(name)) is empty on \(entry.rows): those cards show it blank; give --require \(name) to refuse such rows"
        }
        for name in long.keys.sorted() {
            guard let found = long[name] else { continue }
            warnings.append(
                "warning: column \(named(name)) is longer than \(found.front.characters) characters on \(found.tally.rows): Wallet "
                    + "cuts it in \(found.front.place) on the front of the card; shorten it, or show it in a back field")
        }
        return (warnings, refusal)
    }
}

/// Rows a warning lists: how many, and the first ten of them.
struct RowTally {
    private(set) var count = 0
    private var first: [Int] = []

    mutating func add(_ row: Int) {
        count += 1
        if first.count < 10 { first.append(row) }
    }

    /// "1 row (row 9)", "12 rows (rows 3, 5, …)".
    var rows: String {
        let listed = first.map(String.init).joined(separator: ", ") + (count > first.count ? ", …" : "")
        return "\(count) row\(count == 1 ? "" : "s") (row\(count == 1 ? "" : "s") \(listed))"
    }
}
