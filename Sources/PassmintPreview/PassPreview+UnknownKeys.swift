import Passmint

extension PassPreview {
    /// Warnings for the keys Wallet does not know, at the top level, in the style dictionary and in its fields: lint
    /// keeps such keys (Wallet ignores them), the preview lists them so that a misspelt key is seen before it ships.
    static func unknownKeys(_ pass: JSONObject) -> [Diagnostic] {
        func warning(_ path: String, _ key: String) -> Diagnostic {
            Diagnostic(
                .warning, "key-unknown", path: path, "Wallet does not know the key \(key) and ignores it, so the preview does too",
                fix: "check its spelling (keys are case-sensitive), or remove it")
        }
        var found = pass.keys.filter { !Pass.modelKeys.contains($0) }.map { warning($0, $0) }
        for style in Pass.Style.allCases {
            guard let fields = pass[style.rawValue]?.objectValue else { continue }
            found += fields.keys.filter { !PassFields.modelKeys.contains($0) }.map { warning("\(style.rawValue).\($0)", $0) }
            for member in fields where member.key.hasSuffix("Fields") {
                for (index, field) in (member.value.arrayValue ?? []).enumerated() {
                    for key in field.objectValue?.keys ?? [] where !PassField.modelKeys.contains(key) {
                        found.append(warning("\(style.rawValue).\(member.key)[\(index)].\(key)", key))
                    }
                }
            }
        }
        return found
    }
}
