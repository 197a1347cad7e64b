import Foundation

/// Everything lint looks at: `pass.json` and the other files of a pass or template.
public struct PassContents: Sendable {
    /// One file besides `pass.json`, as raw bytes (lint checks PNGs itself).
    public struct File: Sendable, Hashable {
        public var path: String
        public var bytes: [UInt8]
        public init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// What was read: a template folder, a `.pkpass` or a `pass.json`, for messages.
    public var source: String
    /// The parsed `pass.json`, or nil when it could not be parsed (the diagnostics say why).
    public var passJSON: JSONObject?
    /// Every file except `pass.json`, `manifest.json` and `signature`.
    public var files: [File]
    /// Templates may leave out `passTypeIdentifier`/`teamIdentifier` and hold `{{placeholders}}`.
    public var isTemplate: Bool
    /// Problems found while reading (JSON syntax, tolerated trailing commas).
    public var readingDiagnostics: [Diagnostic]

    public init(source: String, passJSON: JSONObject?, files: [File], isTemplate: Bool, readingDiagnostics: [Diagnostic] = []) {
        self.source = source
        self.passJSON = passJSON
        self.files = files
        self.isTemplate = isTemplate
        self.readingDiagnostics = readingDiagnostics
    }

    /// Parses `pass.json` bytes, turning syntax errors and tolerated trailing commas into diagnostics.
    public static func parse(passJSON bytes: [UInt8]) -> (JSONObject?, [Diagnostic]) { parsePassJSON(bytes) }

    static func parsePassJSON(_ bytes: [UInt8]) -> (JSONObject?, [Diagnostic]) {
        do {
            let result = try JSONParser.parse(bytes, options: .init(allowTrailingCommas: true))
            let commas = result.trailingCommas.map {
                Diagnostic(
                    .warning, "json-trailing-comma", path: "",
                    "trailing comma at line \($0.line), column \($0.column); Wallet tolerates it, strict JSON parsers do not",
                    fix: "remove the comma")
            }
            guard let object = result.value.objectValue else {
                return (
                    nil,
                    [
                        Diagnostic(
                            .error, "json-not-object", path: "", "pass.json holds \(result.value.typeName), not an object",
                            fix: "make pass.json one JSON object { … }")
                    ]
                )
            }
            return (object, commas)
        } catch {
            return (
                nil,
                [
                    Diagnostic(
                        .error, "json-syntax", path: "", "invalid JSON at line \(error.line), column \(error.column): \(error.message)",
                        fix: "correct the JSON syntax there")
                ]
            )
        }
    }

    /// Reads a template folder (or an unzipped pass folder) without stopping at the first problem in its contents, as
    /// ``TemplateFolder`` reads every template: a link, a FIFO or device, or a file over its limit is an error thrown.
    /// A file Wallet does not read is listed without its bytes (it is not read), for the `file-unknown` error.
    public static func load(folder: String) throws(PassmintError) -> PassContents {
        let contents = try TemplateFolder.read(folder, package: .pass)
        let (json, readingDiagnostics) = parsePassJSON(contents.main)
        var files = (contents.files + contents.unknown.map { File(path: $0, bytes: []) }).sorted { $0.path < $1.path }
        var diagnostics = readingDiagnostics
        // A template's strings.json is not shipped: lint the pass.strings files Passmint writes from it.
        if let stringsJSON = contents.stringsJSON {
            do {
                let languages = try TemplateStrings.parse(stringsJSON, source: TemplateStrings.fileName)
                files = try TemplateStrings.merge(languages, into: files, folder: folder)
            } catch {
                diagnostics.append(
                    Diagnostic(
                        .error, "strings-json", file: TemplateStrings.fileName, path: "", error.message,
                        fix: "write { \"<language>\": { \"<key>\": \"<text>\" } }, e.g. {\"en\": {\"POINTS\": \"Points\"}}"))
            }
        }
        return PassContents(source: folder, passJSON: json, files: files, isTemplate: true, readingDiagnostics: diagnostics)
    }

    /// Reads the entries of a `.pkpass` archive.
    public static func load(pkpass bytes: [UInt8], source: String) throws(PassmintError) -> PassContents {
        let entries = try ZipArchive.read(bytes, source: source).filter { !$0.name.hasSuffix("/") }
        guard let pass = entries.first(where: { $0.name == "pass.json" }) else {
            return PassContents(
                source: source, passJSON: nil, files: [], isTemplate: false,
                readingDiagnostics: [
                    Diagnostic(
                        .error, "pass-json-missing", file: "pass.json", path: "", "the archive has no pass.json at its root",
                        fix: "zip the contents of the pass folder, not the folder itself")
                ])
        }
        let (json, diagnostics) = parsePassJSON(pass.bytes)
        let files = entries.filter { !["pass.json", "manifest.json", "signature"].contains($0.name) }.map {
            File(path: $0.name, bytes: $0.bytes)
        }
        return PassContents(source: source, passJSON: json, files: files, isTemplate: false, readingDiagnostics: diagnostics)
    }
}
