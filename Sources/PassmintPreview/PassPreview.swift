public import Foundation
public import Passmint

/// A picture of a pass as Wallet lays it out, written as one self-contained HTML page: images inlined as `data:`
/// URIs, barcodes as inline SVG (drawn by zint, so they scan), no script and no network access. The page shows the
/// front and back on an iPhone, the Apple Watch view beside it, and lint's findings under the picture.
///
/// ```swift
/// let preview = try PassPreview(templateFolder: "PassTemplates/Loyalty.pass", data: ["memberName": "Ada"])
/// let html = preview.html(PassPreview.Options(language: "fr", side: .both))
/// ```
///
/// A pass with a broken image, an unknown key or a value of the wrong type still previews: what cannot be drawn is
/// left out and lint's diagnostics say why.
public struct PassPreview: Sendable {
    /// Which side of the pass to draw.
    public enum Side: String, Sendable, CaseIterable {
        /// The front only.
        case front
        /// The back fields only.
        case back
        /// The front, then the back.
        case both
    }

    /// How to draw the preview.
    public struct Options: Sendable {
        /// The device's language (`fr`, `zh-Hans`): labels and values come from its `.lproj` (nil, or a language the
        /// pass lacks: the first localization by name); dates, numbers and the preview's own words follow it either way.
        public var language: String?
        /// Which side to draw (default: both).
        public var side: Side
        /// Whether to draw the Apple Watch view beside the phone.
        public var showsWatch: Bool
        /// The viewer's time zone for dates (a field with `ignoresTimeZone` keeps its own).
        public var timeZone: TimeZone
        /// "Now", for relative dates and the expired look.
        public var now: Date
        /// Draw the barcode an iOS 27 device shows, which may be one of the new formats (Code 39, Codabar, EAN-13,
        /// ITF); by default the first classic format, as today's devices.
        public var iOS27Barcodes = false
        /// The Google Wallet card the pass becomes (``GoogleCardPreview/section()``), drawn beside the Apple devices.
        public var googleCard: String?

        /// Options with Wallet's defaults: the first localization, both sides, the Watch view, this machine's time zone, now.
        public init(
            language: String? = nil, side: Side = .both, showsWatch: Bool = true, timeZone: TimeZone = .current, now: Date = Date()
        ) {
            self.language = language
            self.side = side
            self.showsWatch = showsWatch
            self.timeZone = timeZone
            self.now = now
        }
    }

    /// What was previewed (a template folder or a `.pkpass`), for the page title and messages.
    public let source: String
    /// The pass's `pass.json`, placeholders filled in; empty when it could not be read (see ``diagnostics``).
    public let passJSON: JSONObject
    /// Every other file of the pass.
    public let files: [PassContents.File]
    /// Lint's findings about the pass, and the keys Wallet does not know, listed under the picture.
    public let diagnostics: [Diagnostic]

    /// A preview of a pass already read: `contents.passJSON` is drawn as it is (lint runs on it).
    public init(contents: PassContents, extraDiagnostics: [Diagnostic] = [], lintOptions: LintOptions = .init()) {
        source = contents.source
        passJSON = contents.passJSON ?? JSONObject()
        files = contents.files
        diagnostics =
            extraDiagnostics + PassLinter.lint(contents, options: lintOptions) + Self.unknownKeys(contents.passJSON ?? JSONObject())
    }

    /// A preview of a signed or unsigned `.pkpass` archive.
    ///
    /// - Throws: `PassmintError.Code.archiveFailed` when the bytes are not a ZIP archive.
    public init(pkpass bytes: [UInt8], source: String) throws(PassmintError) {
        self.init(contents: try PassContents.load(pkpass: bytes, source: source), lintOptions: LintOptions(allowHTTPWebService: true))
    }

    /// A preview of a template folder filled with `data` (placeholder name → value), as `passmint create` would
    /// build it. A template that does not load or render (a broken image, a missing value) still previews from its
    /// files as they are, with the reason first among the diagnostics.
    ///
    /// - Throws: `PassmintError.Code.fileSystem` or `PassmintError.Code.invalidTemplate` only when the folder or
    ///   its `pass.json` cannot be read at all.
    public init(templateFolder folder: String, data: JSONObject) throws(PassmintError) {
        do {
            let template = try PassTemplate(folder: folder)
            let typed = template.typed(data)
            let pass = try template.render(data: typed)
            let files = try template.renderFiles(data: typed).map { PassContents.File(path: $0.path, bytes: $0.bytes) }
            self.init(
                contents: PassContents(
                    source: folder, passJSON: pass, files: files, isTemplate: true,
                    readingDiagnostics: template.diagnostics.filter { $0.code == "json-trailing-comma" }),
                lintOptions: LintOptions(allowHTTPWebService: true))
        } catch {
            let problem = Diagnostic(
                .error, "preview-template", file: "pass.json", path: "", error.message,
                fix: "fix this first: the preview shows the template's files as they are")
            var lenient = try PassContents.load(folder: folder)
            if let json = lenient.passJSON {
                lenient.passJSON = Placeholders.fillLeniently(.object(json), data: data).objectValue
            }
            self.init(contents: lenient, extraDiagnostics: [problem], lintOptions: LintOptions(allowHTTPWebService: true))
        }
    }

    /// The preview page.
    public func html(_ options: Options = Options()) -> String {
        PreviewPage(preview: self, options: options).html()
    }
}
