/// The localized strings of a template.
///
/// - `strings.json` at the template root maps a language to its translations,
///   `{"en": {"POINTS": "Points"}, "fr": {"POINTS": "Points fidélité"}, "zh-Hans": {"POINTS": "积分"}}`. It is not
///   shipped in the pass: Passmint writes `<lang>.lproj/pass.strings` for each language from it (merged with a
///   `pass.strings` already in the template, `strings.json` winning), UTF-16 little-endian with a BOM.
/// - A `pass.strings` value may hold `{{placeholders}}`; they are replaced per pass by the value's text.
enum TemplateStrings {
    /// The template file holding translations for every language.
    static let fileName = "strings.json"

    /// One language's translations from `strings.json`, in the file's order.
    struct Language {
        var code: String
        var entries: [StringsFile.Entry]
    }

    /// Whether `code` can name a `.lproj` folder: a language (`fr`), optionally with script or region (`zh-Hans`,
    /// `pt-BR`, `en_GB`).
    static func isLanguageCode(_ code: String) -> Bool {
        let parts = code.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    /// Parses `strings.json`. `source` names the file in errors.
    static func parse(_ bytes: [UInt8], source: String) throws(PassmintError) -> [Language] {
        let object = try JSONParser.object(
            bytes, file: source, shape: "language → { key → text }, e.g. {\"en\": {\"POINTS\": \"Points\"}}", code: .invalidTemplate)
        var languages: [Language] = []
        for member in object {
            guard isLanguageCode(member.key) else {
                throw PassmintError(
                    .invalidTemplate,
                    "\(source): \"\(member.key)\" is not a language code for a .lproj folder: use e.g. \"en\", \"fr\", \"zh-Hans\" or \"pt-BR\""
                )
            }
            guard let table = member.value.objectValue else {
                throw PassmintError(
                    .invalidTemplate,
                    "\(source): \"\(member.key)\" must hold an object of key → text, e.g. {\"POINTS\": \"Points\"}, not \(member.value.typeName)"
                )
            }
            var entries: [StringsFile.Entry] = []
            for entry in table {
                guard let text = entry.value.stringValue else {
                    throw PassmintError(
                        .invalidTemplate,
                        "\(source): \(member.key).\(entry.key) must be a string (the translated text), not \(entry.value.typeName)")
                }
                entries.append(StringsFile.Entry(key: entry.key, value: text))
            }
            languages.append(Language(code: member.key, entries: entries))
        }
        return languages
    }

    /// `files` with `strings.json`'s translations written into `<lang>.lproj/pass.strings`: existing entries keep their
    /// order (their values replaced by `strings.json`'s), new keys follow in `strings.json`'s order. `folder` names the
    /// template in errors.
    static func merge(_ languages: [Language], into files: [PassContents.File], folder: String) throws(PassmintError) -> [PassContents.File]
    {
        var output = files
        for language in languages {
            let path = "\(language.code).lproj/pass.strings"
            var entries: [StringsFile.Entry] = []
            let existingIndex = output.firstIndex { $0.path == path }
            if let existingIndex {
                do {
                    entries = try StringsFile.parse(output[existingIndex].bytes)
                } catch {
                    throw PassmintError(
                        .invalidTemplate,
                        "\(folder)/\(path) cannot be read (\(error)), so strings.json cannot be merged into it: fix its syntax")
                }
            }
            var positions: [String: Int] = [:]
            for (index, entry) in entries.enumerated() where positions[entry.key] == nil { positions[entry.key] = index }
            for entry in language.entries {
                if let index = positions[entry.key] {
                    entries[index].value = entry.value
                } else {
                    positions[entry.key] = entries.count
                    entries.append(entry)
                }
            }
            let file = PassContents.File(path: path, bytes: StringsFile.write(entries))
            if let existingIndex { output[existingIndex] = file } else { output.append(file) }
        }
        return output.sorted { $0.path < $1.path }
    }

    /// `files` with every readable `pass.strings` in UTF-8 or UTF-16 big-endian re-encoded as UTF-16 little-endian with a
    /// BOM, its text unchanged. Done once when a template loads, so every pass ships the same bytes. A file that cannot
    /// be read stays as it is: lint reports it (`strings-syntax`) and the builder refuses to sign.
    static func utf16Files(_ files: [PassFile]) throws(PassmintError) -> [PassFile] {
        var output = files
        for (index, file) in files.enumerated() where isStringsFile(file.path) && !StringsFile.isUTF16LittleEndianWithBOM(file.bytes) {
            guard let bytes = try? StringsFile.utf16LittleEndian(file.bytes, file: file.path) else { continue }
            output[index] = try PassFile(path: file.path, bytes: bytes)
        }
        return output
    }

    /// Whether `path` is a `<lang>.lproj/pass.strings` file.
    static func isStringsFile(_ path: String) -> Bool {
        let components = path.split(separator: "/")
        return components.count == 2 && components[0].hasSuffix(".lproj") && components[1] == "pass.strings"
    }

    /// A `pass.strings` file whose values hold placeholders, rendered for each pass.
    struct Dynamic: Sendable {
        var path: String
        var entries: [StringsFile.Entry]
        /// Names the file in errors.
        var source: String

        /// The placeholder names its values use, in order of first use.
        var placeholders: [String] {
            var names: [String] = []
            var seen: Set<String> = []
            for entry in entries {
                for case .placeholder(let name) in Placeholders.pieces(of: entry.value) ?? [] where seen.insert(name).inserted {
                    names.append(name)
                }
            }
            return names
        }

        /// The file for one pass: every placeholder replaced by its value's text, written as UTF-16 LE with a BOM.
        func render(data: JSONObject) throws(PassmintError) -> PassFile {
            var rendered: [StringsFile.Entry] = []
            rendered.reserveCapacity(entries.count)
            for entry in entries {
                guard let pieces = Placeholders.pieces(of: entry.value) else {
                    rendered.append(entry)
                    continue
                }
                var text = ""
                for piece in pieces {
                    switch piece {
                    case .text(let literal): text += literal
                    case .placeholder(let name):
                        guard let value = data[name] else {
                            throw PassmintError(
                                .invalidData,
                                "placeholder {{\(name)}} (in \"\(entry.key)\" of \(source)) has no value: give the data a value named \"\(name)\" (batch: a column or JSON key of that name, or --map Column=\(name); create: --data file or --set \(name)=…)"
                            )
                        }
                        guard let piece = Placeholders.text(of: value) else {
                            throw PassmintError(
                                .invalidData,
                                "placeholder {{\(name)}} (in \"\(entry.key)\" of \(source)) must be a string, number or boolean to go into a translation, not \(value.typeName)"
                            )
                        }
                        text += piece
                    }
                }
                rendered.append(StringsFile.Entry(key: entry.key, value: text))
            }
            return PassFile(smallFile: path, bytes: StringsFile.write(rendered))
        }
    }

    /// The `pass.strings` files among `files` whose values hold placeholders. `folder` names the template in errors;
    /// `generated` lists the paths written from `strings.json`.
    static func dynamicFiles(in files: [PassFile], folder: String, generated: Set<String>) -> [Dynamic] {
        files.compactMap { file in
            guard isStringsFile(file.path), let entries = try? StringsFile.parse(file.bytes),
                entries.contains(where: { Placeholders.pieces(of: $0.value) != nil })
            else { return nil }
            let source = generated.contains(file.path) ? "\(folder)/\(file.path) (written from strings.json)" : "\(folder)/\(file.path)"
            return Dynamic(path: file.path, entries: entries, source: source)
        }
    }
}
