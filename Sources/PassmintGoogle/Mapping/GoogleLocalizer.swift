import Passmint

/// A pass's translations (`<lang>.lproj/pass.strings`) turned into Google's `LocalizedString`: the default
/// language's text as `defaultValue`, every other language that translates the key in `translatedValues`.
struct GoogleLocalizer: Sendable {
    let defaultLanguage: String
    /// Texts by language, then key.
    let tables: [String: [String: String]]

    init(files: [PassContents.File], defaultLanguage: String?) {
        var tables: [String: [String: String]] = [:]
        for file in files where file.path.hasSuffix(".lproj/pass.strings") {
            let language = String(file.path.dropLast(".lproj/pass.strings".count))
            guard let entries = try? StringsFile.parse(file.bytes, file: file.path) else { continue }
            tables[language] = Dictionary(entries.map { ($0.key, $0.value) }) { first, _ in first }
        }
        self.tables = tables
        self.defaultLanguage = defaultLanguage ?? (tables["en"] != nil || tables.isEmpty ? "en" : tables.keys.sorted()[0])
    }

    /// The text shown in the default language: the translation of `key`, or `key` itself.
    func text(_ key: String) -> String { tables[defaultLanguage]?[key] ?? key }

    /// Whether another language translates `key`.
    func isTranslated(_ key: String) -> Bool { tables.contains { $0.key != defaultLanguage && $0.value[key] != nil } }

    /// `{"defaultValue": {"language", "value"}, "translatedValues": [...]}`.
    func localized(_ key: String) -> JSONValue {
        var object: JSONObject = ["defaultValue": ["language": .string(defaultLanguage), "value": .string(text(key))]]
        let others = tables.keys.filter { $0 != defaultLanguage }.sorted().compactMap { language -> JSONValue? in
            tables[language]?[key].map { ["language": .string(language), "value": .string($0)] }
        }
        if !others.isEmpty { object["translatedValues"] = .array(others) }
        return .object(object)
    }
}
