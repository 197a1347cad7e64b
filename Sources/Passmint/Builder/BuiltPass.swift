/// A signed pass, ready to write or serve.
public struct BuiltPass: Sendable {
    /// The `.pkpass` archive bytes (MIME type `application/vnd.apple.pkpass`).
    public var archive: [UInt8]
    /// The exact `pass.json` bytes inside the archive.
    public var passJSON: [UInt8]
    /// The exact `manifest.json` bytes inside the archive.
    public var manifest: [UInt8]
    public var passTypeIdentifier: String
    public var serialNumber: String
    /// Lint warnings: findings that did not stop the build.
    public var warnings: [Diagnostic]

    /// The MIME type to serve a pass with.
    public static let mimeType = "application/vnd.apple.pkpass"
}
