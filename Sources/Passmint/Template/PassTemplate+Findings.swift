/// Findings about a pass traced back to the data it was made from, so that a caller (an API client's form, a
/// spreadsheet's column) learns which of its values each one is about, and of every missing value at once.
extension PassTemplate {
    /// The placeholder a finding at `path` in the rendered `pass.json` is about: the one in the template's value at
    /// that path (a placeholder standing for a whole array or object counts for what is inside it); for a path with
    /// no placeholder of its own (a field's `numberStyle`), the only placeholder of the nearest enclosing value that
    /// holds one, or its `value`'s. Nil when none is, or when the enclosing value holds several and no `value` picks one.
    public func placeholder(at path: String) -> String? {
        let nodes = JSONPath.walk(path, in: passJSON).nodes.dropFirst()  // never the whole pass
        for (depth, node) in nodes.enumerated().reversed() {
            let names = Placeholders.names(in: node)
            if names.count == 1 || (!names.isEmpty && depth == nodes.count - 1) { return names[0] }
            if !names.isEmpty { return node["value"].flatMap { Placeholders.names(in: $0).first } }
        }
        return nil
    }

    /// `diagnostics`, each with ``Diagnostic/placeholder`` set where a `pass.json` finding's path leads to one.
    func tracing(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.map { diagnostic in
            var traced = diagnostic
            if diagnostic.file == "pass.json" { traced.placeholder = placeholder(at: diagnostic.path) }
            return traced
        }
    }

    /// A rendering error (``render(data:)``, ``renderFiles(data:)``) with a finding for every placeholder `data` has
    /// no value for, not only the first one met; its message names the others.
    func namingEveryMissingValue(_ error: PassmintError, data: JSONObject) -> PassmintError {
        let missing = placeholders.filter { data[$0] == nil }
        guard error.code == .invalidData, !missing.isEmpty else { return error }
        var named = error
        if missing.count > 1 {
            named.message += " (nor has it a value for " + missing.dropFirst().map { "{{\($0)}}" }.joined(separator: ", ") + ")"
        }
        named.diagnostics = missing.map { name in
            var finding = Diagnostic(
                .error, "placeholder-missing", path: "", "placeholder {{\(name)}} has no value",
                fix: "give the data a value named \"\(name)\"")
            finding.placeholder = name
            return finding
        }
        return named
    }
}
