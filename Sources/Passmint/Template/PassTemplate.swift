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

    /// Wraps bytes for a pass, hashing and compressing them and checking PNG files.
    public init(path: String, bytes: [UInt8]) throws(PassmintError) {
        self.path = path
        self.bytes = bytes
        self.sha1 = Digest.sha1Hex(bytes)
        self.png = path.lowercased().hasSuffix(".png") ? try PNGInfo(bytes: bytes, file: path) : nil
        self.compressed = try PrecompressedData(compressing: bytes, name: path)
    }

    var zipEntry: ZipArchive.Entry { ZipArchive.Entry(name: path, precompressed: compressed) }

    public static func == (lhs: PassFile, rhs: PassFile) -> Bool { lhs.path == rhs.path && lhs.sha1 == rhs.sha1 }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(sha1)
    }
}

/// A pass template: a folder `Name.pass/` with `pass.json` (which may hold `{{placeholders}}`), images and optional
/// `<lang>.lproj/` folders. Loading reads, checks and hashes every file once; ``render(data:)`` makes the per-pass
/// `pass.json`. Immutable and safe to share between threads.
public final class PassTemplate: Sendable {
    /// The folder the template was loaded from.
    public let folder: String
    /// `pass.json` as parsed, placeholders intact.
    public let passJSON: JSONValue
    /// Every other file of the pass, sorted by path, with its SHA-1.
    public let files: [PassFile]
    /// Placeholder names used in `pass.json`, in order of first use.
    public let placeholders: [String]
    /// Placeholders that must be numbers or booleans where they are used.
    public let placeholderKinds: [String: PlaceholderKind]
    /// SHA-256 state after the archive bytes every pass of this template starts with (the template files' entries).
    let archivePrefix: PrefixedSHA256?
    /// Lint findings about the template itself: tolerated trailing commas in `pass.json`, and every file rule
    /// (images, localizations, personalization). Errors among them stop ``PassBuilder`` from signing.
    public let diagnostics: [Diagnostic]

    /// Names that are never part of a pass: signing output and operating-system litter.
    static let ignoredNames: Set<String> = ["manifest.json", "signature", ".DS_Store", "Thumbs.db", "desktop.ini"]

    /// Builds a template from parts already in memory.
    public init(folder: String, passJSON: JSONValue, files: [PassFile], readingDiagnostics: [Diagnostic] = []) throws(PassmintError) {
        guard case .object = passJSON else {
            throw PassmintError(.invalidTemplate, "\(folder)/pass.json must hold a JSON object ({ … }), not \(passJSON.typeName)")
        }
        self.folder = folder
        self.passJSON = passJSON
        self.files = files.sorted { $0.path < $1.path }
        self.placeholders = Placeholders.names(in: passJSON)
        self.placeholderKinds = Self.placeholderKinds(in: passJSON)
        self.archivePrefix = try? PrefixedSHA256(prefix: ZipArchive.localEntries(of: ZipArchive.make(self.files.map(\.zipEntry))))
        self.diagnostics = readingDiagnostics + PassLinter.lintFiles(
            self.files.map { PassContents.File(path: $0.path, bytes: $0.bytes) }, pass: passJSON.objectValue ?? JSONObject())
        guard self.files.contains(where: { ImageName(path: $0.path).map { $0.name == "icon" } ?? false }) else {
            throw PassmintError(
                .invalidImage,
                "\(folder) has no icon.png: every pass needs an icon (38×38 pt: icon.png 38×38, icon@2x.png 76×76, icon@3x.png 114×114 px)")
        }
    }

    /// Loads a template folder.
    public convenience init(folder: String) throws(PassmintError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PassmintError(.invalidTemplate, "template folder \(folder) does not exist (a template is a folder such as MyCard.pass/ holding pass.json and images)")
        }
        let passPath = folder + "/pass.json"
        let passBytes = try FileIO.read(passPath, what: "pass.json of the template")
        let parsed: JSONParser.Result
        do {
            parsed = try JSONParser.parse(passBytes, options: .init(allowTrailingCommas: true))
        } catch {
            throw PassmintError(.invalidTemplate, "\(passPath) is not valid JSON: \(error)")
        }
        let readingDiagnostics = parsed.trailingCommas.map {
            Diagnostic(.warning, "json-trailing-comma", path: "",
                       "trailing comma at line \($0.line), column \($0.column) tolerated (Wallet accepts it; Passmint writes strict JSON)",
                       fix: "remove the comma")
        }

        var files: [PassFile] = []
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            throw PassmintError(.fileSystem, "cannot list template folder \(folder): \(error.localizedDescription)")
        }
        for entry in entries where entry != "pass.json" && !Self.isIgnored(entry) {
            let path = folder + "/" + entry
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            if isFolder.boolValue {
                guard entry.hasSuffix(".lproj") else {
                    throw PassmintError(
                        .invalidTemplate,
                        "\(path) is a folder, but a pass may only hold <language>.lproj folders (e.g. fr.lproj): move it out of the template")
                }
                let inner: [String]
                do {
                    inner = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
                } catch {
                    throw PassmintError(.fileSystem, "cannot list \(path): \(error.localizedDescription)")
                }
                for file in inner where !Self.isIgnored(file) {
                    let innerPath = path + "/" + file
                    var innerIsFolder: ObjCBool = false
                    _ = FileManager.default.fileExists(atPath: innerPath, isDirectory: &innerIsFolder)
                    if innerIsFolder.boolValue {
                        throw PassmintError(.invalidTemplate, "\(innerPath) is a folder inside a .lproj folder: Wallet only reads files there")
                    }
                    files.append(try Self.loadFile(folder: folder, relative: entry + "/" + file))
                }
            } else {
                files.append(try Self.loadFile(folder: folder, relative: entry))
            }
        }
        try self.init(folder: folder, passJSON: parsed.value, files: files, readingDiagnostics: readingDiagnostics)
    }

    private static func isIgnored(_ name: String) -> Bool {
        name.hasPrefix(".") || name == "__MACOSX" || ignoredNames.contains(name)
    }

    private static func loadFile(folder: String, relative: String) throws(PassmintError) -> PassFile {
        let bytes = try FileIO.read(folder + "/" + relative, what: "template file")
        do {
            return try PassFile(path: relative, bytes: bytes)
        } catch {
            throw PassmintError(error.code, error.message.replacingOccurrences(of: relative, with: folder + "/" + relative, options: .anchored))
        }
    }

    /// Lowercase hex SHA-256 of an archive built from this template, reusing the hash state of the template files'
    /// entries that every such archive starts with.
    public func sha256Hex(ofArchive archive: [UInt8]) -> String {
        archivePrefix?.sha256Hex(archive) ?? Digest.sha256Hex(archive)
    }

    /// Makes this pass's `pass.json` content: every placeholder replaced from `data`.
    ///
    /// - Throws: ``PassmintError/Code/invalidData`` naming the placeholder and file when a value is missing.
    public func render(data: JSONObject) throws(PassmintError) -> JSONObject {
        let rendered = try Placeholders.substitute(passJSON, data: data, file: folder + "/pass.json")
        return rendered.objectValue!
    }
}
