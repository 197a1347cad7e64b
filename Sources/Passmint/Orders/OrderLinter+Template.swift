extension OrderLinter {
    /// Findings about an order template: as ``lint(json:files:)``, except that a value which is exactly one
    /// `{{placeholder}}` passes type and value checks (the data fills it in) and `orderTypeIdentifier` may be absent
    /// (the certificate's UID fills it in).
    public static func lint(template: OrderTemplate) -> [Diagnostic] {
        guard let json = template.orderJSON.objectValue else { return [] }
        let files = template.files.map { PassContents.File(path: $0.path, bytes: $0.bytes) }
        return lint(json: json, files: files).filter { diagnostic in
            if diagnostic.code == "order-required-key" && diagnostic.path == "orderTypeIdentifier" { return false }
            guard diagnostic.file == "order.json", let text = value(at: diagnostic.path, in: .object(json))?.stringValue else {
                return true
            }
            guard let pieces = Placeholders.pieces(of: text), pieces.count == 1, case .placeholder = pieces[0] else { return true }
            return false
        }
    }

    /// The value at a diagnostic's JSON path (`fulfillments[0].status`), if there is one.
    static func value(at path: String, in root: JSONValue) -> JSONValue? {
        var node: JSONValue? = root
        for part in path.split(separator: ".") {
            var name = Substring(part)
            var indexes: [Int] = []
            while name.hasSuffix("]"), let open = name.lastIndex(of: "["),
                let index = Int(name[name.index(after: open)..<name.index(before: name.endIndex)])
            {
                indexes.insert(index, at: 0)
                name = name[..<open]
            }
            if !name.isEmpty { node = node?[String(name)] }
            for index in indexes {
                guard let array = node?.arrayValue, array.indices.contains(index) else { return nil }
                node = array[index]
            }
        }
        return node
    }
}
