extension OrderLinter {
    /// Findings about an order template: as ``lint(json:files:)``, except that a value which is exactly one
    /// `{{placeholder}}` passes type and value checks (the data fills it in) and `orderTypeIdentifier` may be absent
    /// (the certificate's UID fills it in).
    public static func lint(template: OrderTemplate) -> [Diagnostic] {
        guard let json = template.orderJSON.objectValue else { return [] }
        let files = template.files.map { PassContents.File(path: $0.path, bytes: $0.bytes) }
        return lint(json: json, files: files).filter { diagnostic in
            if diagnostic.code == "order-required-key" && diagnostic.path == "orderTypeIdentifier" { return false }
            guard diagnostic.file == "order.json", let text = JSONPath.value(at: diagnostic.path, in: .object(json))?.stringValue else {
                return true
            }
            guard let pieces = Placeholders.pieces(of: text), pieces.count == 1, case .placeholder = pieces[0] else { return true }
            return false
        }
    }
}
