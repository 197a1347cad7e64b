public import Foundation

/// Builds signed `.pkpass` archives from a ``PassInput``: renders `pass.json`, applies the ``PassStamp``, checks it,
/// writes `manifest.json` (SHA-1 of every file), signs the manifest with OpenSSL and zips everything in memory around
/// the template's files, compressed once.
///
/// Three verbs: ``check(_:)`` makes every check, ``prepare(_:)`` every check and the `pass.json` bytes,
/// ``sign(_:)-(PreparedPass)`` the manifest, signature and archive (``sign(_:)-(PassInput)`` does both); and
/// ``render(_:)`` the rendered `pass.json` without the checks, for a pass checked before.
///
/// ```swift
/// let identity = try SigningIdentity(certificatePath: "Certificates/signer.pem", keyPath: "Certificates/signer.key",
///                                    passphrase: nil, wwdrPath: "Certificates/wwdr.pem")
/// let template = try PassTemplate(folder: "PassTemplates/Loyalty.pass")
/// let pass = try PassBuilder(identity: identity).sign(PassInput(template: template, data: ["serialNumber": "A1", "name": "Zoë"]))
/// try FileIO.writeAtomically(pass.archive, to: "A1.pkpass")
/// ```
///
/// A builder is a value over an immutable identity: share it between threads freely.
public struct PassBuilder: SigningBuilder {
    public struct Options: Sendable {
        /// Sign with a certificate outside its validity period (for tests only; Wallet refuses such passes).
        public var allowExpired: Bool
        /// The time the certificate's validity is checked against; now when nil.
        public var now: Date?
        /// Options of the lint rules run before signing.
        public var lint: LintOptions

        public init(allowExpired: Bool = false, now: Date? = nil, lint: LintOptions = .init()) {
            self.allowExpired = allowExpired
            self.now = now
            self.lint = lint
        }
    }

    /// The identities passes are signed with: each pass by the one for its `passTypeIdentifier`.
    public let identities: SigningIdentities
    public var options: Options

    /// A builder that signs each pass with the identity for its pass type (see ``SigningIdentities``).
    public init(identities: SigningIdentities, options: Options = .init()) {
        self.identities = identities
        self.options = options
    }

    /// The first identity (the only one, for a builder made with ``SigningBuilder/init(identity:options:)``).
    package var identity: SigningIdentity { identities.all[0] }

    /// Renders and checks the pass: everything before the signature. It throws what ``sign(_:)-(PassInput)`` would
    /// throw for bad input; ``sign(_:)-(PreparedPass)`` then only fails if OpenSSL does (or the pass would be over
    /// 4 GiB). A service can store a pass while it is being signed, knowing it will build.
    public func prepare(_ input: PassInput) throws(PassmintError) -> PreparedPass {
        try prepare(input, writesJSON: true)
    }

    /// The pass's `pass.json` object and files as ``prepare(_:)`` makes them (rendered and stamped, its type and team
    /// from the certificate where it names none), without linting them: for a pass that was checked when it was
    /// stored, shown another way (a Google Wallet object).
    public func render(_ input: PassInput) throws(PassmintError) -> (passJSON: JSONObject, files: [PassFile]) {
        let rendered = try rendered(input)
        return (rendered.passJSON, rendered.files)
    }

    /// Every check of ``prepare(_:)``, without writing `pass.json`: what lazy issuing runs on each row it records.
    /// Returns the pass's `passTypeIdentifier`.
    public func check(_ input: PassInput) throws(PassmintError) -> String {
        try prepare(input, writesJSON: false).passTypeIdentifier
    }

    /// Prepares and signs a pass.
    public func sign(_ input: PassInput) throws(PassmintError) -> BuiltPass {
        try sign(try prepare(input))
    }

    /// Writes the manifest, signs it and zips the pass.
    public func sign(_ prepared: PreparedPass) throws(PassmintError) -> BuiltPass {
        let signed = try signArchive(prepared)
        return BuiltPass(
            archive: signed.archive.bytes, passJSON: prepared.passJSON, manifest: signed.manifest,
            passTypeIdentifier: prepared.passTypeIdentifier, serialNumber: prepared.serialNumber, warnings: prepared.warnings)
    }

    /// ``sign(_:)-(PreparedPass)`` with the archive in its parts (``PassArchive``): the template's entries are not
    /// copied. For the batch.
    package func signArchive(_ prepared: PreparedPass) throws(PassmintError) -> (archive: PassArchive, manifest: [UInt8]) {
        let manifest = Self.manifest(passJSON: prepared.passJSON, files: prepared.files)
        let signature = try identities.identity(for: prepared.passTypeIdentifier).signDetached(manifest)
        let archive = try PassArchive.make(
            prefix: prepared.archivePrefix, files: prepared.files, json: ("pass.json", prepared.passJSON), manifest: manifest,
            signature: signature)
        return (archive, manifest)
    }

    /// `manifest.json`: every file's path → lowercase hex SHA-1 of its bytes, keys sorted.
    static func manifest(passJSON: [UInt8], files: [PassFile]) -> [UInt8] {
        PassArchive.manifest(files.map { ($0.path, $0.sha1) } + [("pass.json", Digest.sha1Hex(passJSON))])
    }
}

extension PassBuilder {
    public static var defaultOptions: Options { Options() }
}
