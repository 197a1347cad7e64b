/// A pass rendered and checked by ``PassBuilder/prepare(_:)``, ready for ``PassBuilder/sign(_:)-(PreparedPass)``.
public struct PreparedPass: Sendable {
    /// The exact `pass.json` bytes the archive will hold.
    public var passJSON: [UInt8]
    /// The other files of the pass.
    public var files: [PassFile]
    public var passTypeIdentifier: String
    public var serialNumber: String
    /// Lint warnings: findings that did not stop the build.
    public var warnings: [Diagnostic]
    /// The template's entries the archive begins with (shared by every pass of the template), when from a template.
    var archivePrefix: ZipPrefix?
}
