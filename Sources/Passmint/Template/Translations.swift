/// Translations for several languages, for templates made in code: what `strings.json` does for a template folder.
///
/// ```swift
/// var translations = try Translations(["en": ["POINTS": "Points", "WELCOME": "Welcome, {{name}}!"],
///                                      "fr": ["POINTS": "Points fidélité", "WELCOME": "Bienvenue, {{name}} !"]])
/// try translations.set("积分", for: "POINTS", in: "zh-Hans")
/// let template = try PassTemplate(folder: "Mint", passJSON: passJSON, files: [icon], translations: translations)
/// ```
///
/// Each language becomes `<code>.lproj/pass.strings` (UTF-16 little-endian with a BOM), merged with a `pass.strings`
/// already among the files (the translation wins on the same key). Values may hold `{{placeholders}}`, filled per pass.
public struct Translations: Sendable, Hashable {
    /// One language's translations, in order.
    public struct Language: Sendable, Hashable {
        /// The `.lproj` folder's language code: `en`, `fr`, `zh-Hans`, `pt-BR`.
        public var code: String
        public var entries: [StringsFile.Entry]
    }

    /// The languages, in the order they were given (a dictionary's languages and keys sorted).
    public private(set) var languages: [Language] = []

    public init() {}

    /// Translations from `language → (key → text)`. A dictionary has no order, so languages and keys are sorted, and
    /// the same translations always give the same `pass.strings` bytes.
    ///
    /// - Throws: ``PassmintError/Code/invalidTemplate`` naming a language code that cannot name a `.lproj` folder.
    public init(_ tables: [String: [String: String]]) throws(PassmintError) {
        for (code, table) in tables.sorted(by: { $0.key < $1.key }) {
            try Self.checkLanguage(code)
            let entries = table.sorted { $0.key < $1.key }.map { StringsFile.Entry(key: $0.key, value: $0.value) }
            languages.append(Language(code: code, entries: entries))
        }
    }

    /// Translations from the bytes of a `strings.json` file, in the file's order. `source` names it in errors.
    public init(json bytes: [UInt8], source: String = "strings.json") throws(PassmintError) {
        languages = try TemplateStrings.parse(bytes, source: source).map { Language(code: $0.code, entries: $0.entries) }
    }

    /// Sets the translation of `key` in `language`, replacing an earlier one in place.
    ///
    /// - Throws: ``PassmintError/Code/invalidTemplate`` when `language` cannot name a `.lproj` folder.
    public mutating func set(_ text: String, for key: String, in language: String) throws(PassmintError) {
        try Self.checkLanguage(language)
        if !languages.contains(where: { $0.code == language }) { languages.append(Language(code: language, entries: [])) }
        let index = languages.firstIndex { $0.code == language }!
        if let entry = languages[index].entries.firstIndex(where: { $0.key == key }) {
            languages[index].entries[entry].value = text
        } else {
            languages[index].entries.append(StringsFile.Entry(key: key, value: text))
        }
    }

    /// The translation of `key` in `language`, if any.
    public func text(for key: String, in language: String) -> String? {
        languages.first { $0.code == language }?.entries.last { $0.key == key }?.value
    }

    private static func checkLanguage(_ code: String) throws(PassmintError) {
        guard TemplateStrings.isLanguageCode(code) else {
            throw PassmintError(
                .invalidTemplate,
                "\"\(code)\" is not a language code for a .lproj folder: use e.g. \"en\", \"fr\", \"zh-Hans\" or \"pt-BR\"")
        }
    }

    var templateLanguages: [TemplateStrings.Language] { languages.map { TemplateStrings.Language(code: $0.code, entries: $0.entries) } }
}
