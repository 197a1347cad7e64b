/// Everything one pass is made from: a template and the pass's data, or a finished `pass.json` and its files; the
/// pass's own images; and the ``PassStamp`` (serial, token, web service). ``PassBuilder`` checks it
/// (``PassBuilder/check(_:)``), prepares it (``PassBuilder/prepare(_:)``) and signs it (``PassBuilder/sign(_:)-(PassInput)``).
///
/// ```swift
/// let input = PassInput(template: template, data: ["name": "Zoë", "points": 1250],
///                       stamp: PassStamp(serialNumber: "L-1001", authenticationToken: token, webServiceURL: url))
/// let pass = try builder.sign(input)
/// ```
public struct PassInput: Sendable {
    /// What the pass's `pass.json` and files come from.
    public enum Content: Sendable {
        /// A template filled with the pass's data (placeholder name → value); its files come from the template.
        case template(PassTemplate, data: JSONObject)
        /// A finished `pass.json` object and the pass's files (images, `.lproj` strings); `source` names
        /// `pass.json` in errors. A missing `passTypeIdentifier` or `teamIdentifier` is taken from the certificate.
        case passJSON(JSONObject, files: [PassFile], source: String)
    }

    public var content: Content
    /// The pass's own images: they replace the template's (or the files') images of the same slots, and are checked
    /// against the pass's style (``PassImages/check(style:)``).
    public var images: PassImages
    /// The serial, token, web service URL and voided flag written over the content.
    public var stamp: PassStamp

    public init(content: Content, images: PassImages = .none, stamp: PassStamp = .none) {
        self.content = content
        self.images = images
        self.stamp = stamp
    }

    /// A pass from a template and the pass's data (placeholder name → value).
    public init(template: PassTemplate, data: JSONObject = JSONObject(), images: PassImages = .none, stamp: PassStamp = .none) {
        self.init(content: .template(template, data: data), images: images, stamp: stamp)
    }

    /// A pass from a `pass.json` object and its files; `source` names `pass.json` in errors.
    public init(
        passJSON: JSONObject, files: [PassFile] = [], source: String = "pass.json", images: PassImages = .none, stamp: PassStamp = .none
    ) {
        self.init(content: .passJSON(passJSON, files: files, source: source), images: images, stamp: stamp)
    }

    /// A pass from the typed model and its files.
    ///
    /// - Throws: what ``Pass/jsonObject()`` throws for a model that makes no JSON.
    public init(pass: Pass, files: [PassFile] = [], images: PassImages = .none, stamp: PassStamp = .none) throws(PassmintError) {
        self.init(passJSON: try pass.jsonObject(), files: files, images: images, stamp: stamp)
    }
}
