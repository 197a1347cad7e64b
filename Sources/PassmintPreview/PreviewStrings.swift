import Foundation
package import Passmint

/// The translations the preview shows: `pass.strings` of the chosen `<language>.lproj` (or, when none is chosen or
/// the pass lacks it, the first one by name), as Wallet shows a pass in the device language or its first localization.
/// The service's "Add to Apple Wallet" page reads a pass's (`pass.strings`) or an order's (`order.strings`) the same way,
/// in the language its reader's `Accept-Language` asks for.
package struct PreviewStrings: Sendable {
    /// The `.lproj` language in use, nil when the pass has no localization.
    package let language: String?
    /// Every language the pass is localized in, sorted.
    package let languages: [String]
    private let table: [String: String]

    /// Reads the `pass.strings` of `requested` (matched by ``PreferredLanguage/match(_:in:)``: `fr-CA` falls back to
    /// `fr`). A table that cannot be read is left out; lint reports it.
    package init(files: [PassContents.File], requested: String?, table name: String = "pass.strings") {
        self.init(files: files, table: name) { languages in
            requested.flatMap { PreferredLanguage.match($0, in: languages) }
        }
    }

    /// Reads the `name` table of the language an `Accept-Language` header prefers among those the files carry; when it
    /// names none of them, `fallback`'s (when carried), else the first by name.
    package init(files: [PassContents.File], acceptLanguage: String?, table name: String, fallback: String? = nil) {
        self.init(files: files, table: name) { languages in
            PreferredLanguage.best(acceptLanguage: acceptLanguage, available: languages)
                ?? fallback.flatMap { PreferredLanguage.match($0, in: languages) }
        }
    }

    private init(files: [PassContents.File], table name: String, choose: ([String]) -> String?) {
        var tables: [String: [PassContents.File]] = [:]
        for file in files {
            let parts = file.path.split(separator: "/")
            guard parts.count == 2, parts[0].hasSuffix(".lproj") else { continue }
            tables[String(parts[0].dropLast(6)), default: []].append(file)
        }
        languages = tables.keys.sorted()
        let chosen = choose(languages) ?? languages.first
        language = chosen
        var table: [String: String] = [:]
        if let chosen, let strings = tables[chosen]?.first(where: { $0.path.hasSuffix("/" + name) }),
            let entries = try? StringsFile.parse(strings.bytes)
        {
            for entry in entries { table[entry.key] = entry.value }
        }
        self.table = table
    }

    /// The translation of a localizable string, or the string itself when the table has no entry for it.
    package func localized(_ text: String) -> String { table[text] ?? text }

    /// The path of a localized copy of `file` in the chosen language (`fr.lproj/logo@2x.png`), if any.
    func localizedPath(_ file: String) -> String? { language.map { "\($0).lproj/\(file)" } }
}
