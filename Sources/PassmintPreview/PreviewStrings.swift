import Foundation
import Passmint

/// The translations the preview shows: `pass.strings` of the chosen `<language>.lproj` (or, when none is chosen or
/// the pass lacks it, the first one by name), as Wallet shows a pass in the device language or its first localization.
struct PreviewStrings: Sendable {
    /// The `.lproj` language in use, nil when the pass has no localization.
    let language: String?
    /// Every language the pass is localized in, sorted.
    let languages: [String]
    private let table: [String: String]

    /// Reads the `pass.strings` of `requested` (matched without regard to case, then by its language part: `fr-CA`
    /// falls back to `fr`). A table that cannot be read is left out; lint reports it.
    init(files: [PassContents.File], requested: String?) {
        var tables: [String: [PassContents.File]] = [:]
        for file in files {
            let parts = file.path.split(separator: "/")
            guard parts.count == 2, parts[0].hasSuffix(".lproj") else { continue }
            tables[String(parts[0].dropLast(6)), default: []].append(file)
        }
        languages = tables.keys.sorted()
        let chosen: String?
        if let requested, !requested.isEmpty {
            let wanted = requested.lowercased()
            let base = String(wanted.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "")
            chosen =
                languages.first { $0.lowercased() == wanted } ?? languages.first { $0.lowercased() == base }
                ?? languages.first { $0.lowercased().hasPrefix(base + "-") } ?? languages.first
        } else {
            chosen = languages.first
        }
        language = chosen
        var table: [String: String] = [:]
        if let chosen, let strings = tables[chosen]?.first(where: { $0.path.hasSuffix("/pass.strings") }),
            let entries = try? StringsFile.parse(strings.bytes)
        {
            for entry in entries { table[entry.key] = entry.value }
        }
        self.table = table
    }

    /// The translation of a localizable string, or the string itself when the table has no entry for it.
    func localized(_ text: String) -> String { table[text] ?? text }

    /// The path of a localized copy of `file` in the chosen language (`fr.lproj/logo@2x.png`), if any.
    func localizedPath(_ file: String) -> String? { language.map { "\($0).lproj/\(file)" } }
}
