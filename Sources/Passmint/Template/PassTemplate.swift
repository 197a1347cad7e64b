import Foundation

/// A file that goes into every pass built from a template, hashed and compressed once when the template loads.
public struct PassFile: Sendable, Hashable {
    /// Path inside the pass, with forward slashes (`icon@2x.png`, `fr.lproj/pass.strings`).
    public var path: String
    public var bytes: [UInt8]
    /// Lowercase hex SHA-1 of ``bytes``, as written into `manifest.json`.
    public var sha1: String
    /// Pixel size when the file is a PNG image.
    public var png: PNGInfo?
    /// The zip entry data: deflated once (stored when deflate does not help), copied as it is into every pass.
    public let compressed: PrecompressedData

    /// Wraps bytes for a pass, hashing and compressing them and checking PNG files. `label` names the file in
    /// errors (default: `path`).
    public init(path: String, bytes: [UInt8], label: String? = nil) throws(PassmintError) {
        self.path = path
        self.bytes = bytes
        self.sha1 = Digest.sha1Hex(bytes)
        self.png = path.lowercased().hasSuffix(".png") ? try PNGInfo(bytes: bytes, file: label ?? path) : nil
        self.compressed = try PrecompressedData(compressing: bytes, name: label ?? path)
    }

    /// A small file made for one pass (a rendered `pass.strings`): deflated cheaply, never a PNG.
    init(smallFile path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        self.sha1 = Digest.sha1Hex(bytes)
        self.png = nil
        self.compressed = PrecompressedData(deflatingSmall: bytes)
    }

    public static func == (lhs: PassFile, rhs: PassFile) -> Bool { lhs.path == rhs.path && lhs.sha1 == rhs.sha1 }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(sha1)
    }
}

/// A pass template: a folder `Name.pass/` with `pass.json` (which may hold `{{placeholders}}`), images, optional
/// `<lang>.lproj/` folders and an optional `strings.json` of translations. Loading reads, checks and hashes every file
/// once; ``render(data:)`` makes the per-pass `pass.json` and ``renderFiles(data:)`` the per-pass files (only
/// `pass.strings` files whose values hold placeholders change from pass to pass). Immutable and safe to share between
/// threads.
public final class PassTemplate: Sendable {
    /// The folder the template was loaded from.
    public let folder: String
    /// `pass.json` as parsed, placeholders intact.
    public let passJSON: JSONValue
    /// Every other file of the pass, sorted by path, with its SHA-1 (`pass.strings` files as in the template, their
    /// placeholders intact, `strings.json` already merged into them, and re-encoded as UTF-16 little-endian with a BOM
    /// when written in UTF-8 or UTF-16 big-endian).
    public let files: [PassFile]
    /// Placeholder names used in `pass.json`, then those used only in `pass.strings` values, in order of first use.
    public let placeholders: [String]
    /// The files that are the same in every pass: ``files`` without the `pass.strings` files holding placeholders.
    let staticFiles: [PassFile]
    /// The `pass.strings` files whose values hold placeholders, rendered for each pass.
    let dynamicStrings: [TemplateStrings.Dynamic]
    /// Placeholders that must be numbers or booleans where they are used.
    public let placeholderKinds: [String: PlaceholderKind]
    /// The archive entries every pass of this template starts with (the static files'), with their SHA-256 state.
    let archivePrefix: ZipPrefix?
    /// Lint findings about the template itself: tolerated trailing commas in `pass.json`, and every file rule
    /// (images, localizations, personalization). Errors among them stop ``PassBuilder`` from signing.
    public let diagnostics: [Diagnostic]
    /// The `pass.json` rules for this template's passes, rerun per pass only where the pass differs from the first.
    let lintMemo = LintMemoSlot()

    /// Builds a template from parts already in memory. `<lang>.lproj/pass.strings` files among `files` may hold
    /// `{{placeholders}}` in their values; those in UTF-8 are re-encoded as UTF-16 little-endian with a BOM.
    public convenience init(folder: String, passJSON: JSONValue, files: [PassFile], readingDiagnostics: [Diagnostic] = [])
        throws(PassmintError)
    {
        try self.init(folder: folder, passJSON: passJSON, files: files, readingDiagnostics: readingDiagnostics, generatedStrings: [])
    }

    /// Builds a template from parts in memory with translations for several languages, as a template folder's
    /// `strings.json` does: each language is written into `<lang>.lproj/pass.strings` (UTF-16 LE with a BOM), merged
    /// with a `pass.strings` among `files` (the translation wins on the same key, the file's other keys stay).
    ///
    /// - Throws: ``PassmintError/Code/invalidTemplate`` when a `pass.strings` to merge into cannot be read.
    public convenience init(
        folder: String, passJSON: JSONValue, files: [PassFile], translations: Translations,
        readingDiagnostics: [Diagnostic] = []
    ) throws(PassmintError) {
        let languages = translations.templateLanguages
        let generated = Set(languages.map { "\($0.code).lproj/pass.strings" })
        let merged = try TemplateStrings.merge(
            languages, into: files.map { PassContents.File(path: $0.path, bytes: $0.bytes) }, folder: folder)
        var passFiles: [PassFile] = []
        for file in merged {
            if !generated.contains(file.path), let original = files.first(where: { $0.path == file.path }) {
                passFiles.append(original)
            } else {
                passFiles.append(try PassFile(path: file.path, bytes: file.bytes))
            }
        }
        try self.init(
            folder: folder, passJSON: passJSON, files: passFiles, readingDiagnostics: readingDiagnostics, generatedStrings: generated)
    }

    /// `generatedStrings`: paths of the `pass.strings` files written from `strings.json`, for messages.
    init(folder: String, passJSON: JSONValue, files: [PassFile], readingDiagnostics: [Diagnostic], generatedStrings: Set<String>)
        throws(PassmintError)
    {
        guard case .object = passJSON else {
            throw PassmintError(.invalidTemplate, "\(folder)/pass.json must hold a JSON object ({ … }), not \(passJSON.typeName)")
        }
        self.folder = folder
        self.passJSON = passJSON
        self.files = try TemplateStrings.utf16Files(files).sorted { $0.path < $1.path }
        let dynamic = TemplateStrings.dynamicFiles(in: self.files, folder: folder, generated: generatedStrings)
        let dynamicPaths = Set(dynamic.map(\.path))
        self.dynamicStrings = dynamic
        self.staticFiles = dynamic.isEmpty ? self.files : self.files.filter { !dynamicPaths.contains($0.path) }
        var names = Placeholders.names(in: passJSON)
        for name in dynamic.flatMap(\.placeholders) where !names.contains(name) { names.append(name) }
        self.placeholders = names
        self.placeholderKinds = Self.placeholderKinds(in: passJSON)
        // Every pass starts with the entries of the static files (see renderFiles), so their hash state is shared.
        self.archivePrefix = staticFiles.isEmpty ? nil : ZipPrefix(files: staticFiles)
        self.diagnostics =
            readingDiagnostics
            + PassLinter.lintFiles(
                self.files.map { PassContents.File(path: $0.path, bytes: $0.bytes) }, pass: passJSON.objectValue ?? JSONObject())
        guard self.files.contains(where: { ImageName(path: $0.path).map { $0.name == "icon" } ?? false }) else {
            throw PassmintError(
                .invalidImage,
                "\(folder) has no icon.png: every pass needs an icon (38×38 pt: icon.png 38×38, icon@2x.png 76×76, icon@3x.png 114×114 px)")
        }
    }

    /// Loads a template folder, read as ``TemplateFolder`` reads every template: no symbolic link, regular files
    /// only, each size checked before it is read.
    ///
    /// - Throws: ``PassmintError/Code/invalidTemplate`` naming the file, for a link, a FIFO or device, a file over its
    ///   limit, or a file Wallet does not read (it would be shipped in every pass).
    public convenience init(folder: String) throws(PassmintError) {
        let contents = try TemplateFolder.read(folder, package: .pass)
        if let unknown = contents.unknown.first {
            throw PassmintError(
                .invalidTemplate,
                "\(folder)/\(unknown) is not a file Wallet reads in a pass (it reads pass.json, PNG images, personalization.json "
                    + "and <language>.lproj/pass.strings): it would be shipped in every pass, so move it out of the template")
        }
        let passPath = folder + "/pass.json"
        let parsed: JSONParser.Result
        do {
            parsed = try JSONParser.parse(contents.main, options: .init(allowTrailingCommas: true))
        } catch {
            throw PassmintError(.invalidTemplate, "\(passPath) is not valid JSON: \(error)")
        }
        let readingDiagnostics = parsed.trailingCommas.map {
            Diagnostic(
                .warning, "json-trailing-comma", path: "",
                "trailing comma at line \($0.line), column \($0.column) tolerated (Wallet accepts it; Passmint writes strict JSON)",
                fix: "remove the comma")
        }
        var files = contents.files
        var generated: Set<String> = []
        if let stringsJSON = contents.stringsJSON {
            let languages = try TemplateStrings.parse(stringsJSON, source: folder + "/" + TemplateStrings.fileName)
            files = try TemplateStrings.merge(languages, into: files, folder: folder)
            generated = Set(languages.map { "\($0.code).lproj/pass.strings" })
        }
        var passFiles: [PassFile] = []
        for file in files { passFiles.append(try Self.passFile(folder: folder, file)) }
        try self.init(
            folder: folder, passJSON: parsed.value, files: passFiles, readingDiagnostics: readingDiagnostics, generatedStrings: generated)
    }

    private static func passFile(folder: String, _ file: PassContents.File) throws(PassmintError) -> PassFile {
        do {
            return try PassFile(path: file.path, bytes: file.bytes)
        } catch {
            throw PassmintError(
                error.code, error.message.replacingOccurrences(of: file.path, with: folder + "/" + file.path, options: .anchored))
        }
    }

    /// Lowercase hex SHA-256 of an archive built from this template, reusing the hash state of the template files'
    /// entries that every such archive starts with.
    public func sha256Hex(ofArchive archive: [UInt8]) -> String {
        archivePrefix?.sha256?.sha256Hex(archive) ?? Digest.sha256Hex(archive)
    }

    /// Makes this pass's `pass.json` content: every placeholder replaced from `data`.
    ///
    /// - Throws: ``PassmintError/Code/invalidData`` naming the placeholder and file when a value is missing.
    public func render(data: JSONObject) throws(PassmintError) -> JSONObject {
        let rendered = try Placeholders.substitute(passJSON, data: data, file: folder + "/pass.json")
        return rendered.objectValue!
    }

    /// This pass's files: the template's files, with every `pass.strings` whose values hold placeholders rendered from
    /// `data` (and written as UTF-16 LE with a BOM). Templates without such files return ``files`` as they are, with
    /// no per-pass work; otherwise the unchanged files come first, so every archive starts with the same bytes.
    ///
    /// - Throws: ``PassmintError/Code/invalidData`` naming the placeholder and the `.lproj/pass.strings` file when a
    ///   value is missing.
    public func renderFiles(data: JSONObject) throws(PassmintError) -> [PassFile] {
        guard !dynamicStrings.isEmpty else { return files }
        var output = staticFiles
        output.reserveCapacity(files.count)
        for strings in dynamicStrings { output.append(try strings.render(data: data)) }
        return output
    }
}
