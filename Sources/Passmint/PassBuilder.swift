public import Foundation

/// A signed pass, ready to write or serve.
public struct BuiltPass: Sendable {
    /// The `.pkpass` archive bytes (MIME type `application/vnd.apple.pkpass`).
    public var archive: [UInt8]
    /// The exact `pass.json` bytes inside the archive.
    public var passJSON: [UInt8]
    /// The exact `manifest.json` bytes inside the archive.
    public var manifest: [UInt8]
    /// The DER PKCS#7 detached signature of ``manifest``.
    public var signature: [UInt8]
    public var passTypeIdentifier: String
    public var serialNumber: String
    /// Lint warnings: findings that did not stop the build.
    public var warnings: [Diagnostic]

    /// The MIME type to serve a pass with.
    public static let mimeType = "application/vnd.apple.pkpass"
}

/// A pass rendered and checked by ``PassBuilder/prepare(template:data:overrides:)``, ready for ``PassBuilder/sign(_:)``.
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

/// Builds signed `.pkpass` archives: renders `pass.json`, checks it, writes `manifest.json` (SHA-1 of every file),
/// signs the manifest with OpenSSL and zips everything in memory around the template's files, compressed once.
///
/// ```swift
/// let identity = try SigningIdentity(certificatePath: "Certificates/signer.pem", keyPath: "Certificates/signer.key",
///                                    passphrase: nil, wwdrPath: "Certificates/wwdr.pem")
/// let template = try PassTemplate(folder: "PassTemplates/Loyalty.pass")
/// let pass = try PassBuilder(identity: identity).build(template: template, data: ["serialNumber": "A1", "name": "Zoë"])
/// try FileIO.writeAtomically(pass.archive, to: "A1.pkpass")
/// ```
///
/// A builder is a value over an immutable identity: share it between threads freely.
public struct PassBuilder: Sendable {
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

    /// A builder that signs every pass with `identity`.
    public init(identity: SigningIdentity, options: Options = .init()) {
        self.init(identities: SigningIdentities(identity), options: options)
    }

    /// A builder that signs each pass with the identity for its pass type (see ``SigningIdentities``).
    public init(identities: SigningIdentities, options: Options = .init()) {
        self.identities = identities
        self.options = options
    }

    /// The first identity (the only one, for a builder made with ``init(identity:options:)``).
    public var identity: SigningIdentity { identities.all[0] }

    /// Builds a pass from a template and the pass's data (placeholder name → value).
    ///
    /// `overrides` are top-level `pass.json` keys set after rendering, whatever the template says (a batch sets
    /// `serialNumber` and `authenticationToken` this way).
    public func build(
        template: PassTemplate, data: JSONObject, overrides: JSONObject = JSONObject(), images: PassImages = .none
    ) throws(PassmintError) -> BuiltPass {
        try sign(try prepare(template: template, data: data, overrides: overrides, images: images))
    }

    /// Every step of ``build(template:data:overrides:)`` before the signature: renders and checks the pass, and
    /// throws what `build` would throw for bad data. ``sign(_:)`` then only fails if OpenSSL does (or the pass would
    /// be over 4 GiB). A service can store a pass while it is being signed, knowing it will build.
    ///
    /// `images` replace the template's images of the same slots for this pass (a member's photo); they are checked
    /// against the rendered pass's style (``PassImages/check(style:)``).
    public func prepare(
        template: PassTemplate, data: JSONObject, overrides: JSONObject = JSONObject(), images: PassImages = .none
    ) throws(PassmintError) -> PreparedPass {
        try prepare(template: template, data: data, overrides: overrides, images: images, writesJSON: true)
    }

    /// Every check of ``prepare(template:data:overrides:images:)``, without writing `pass.json`: what lazy issuing
    /// runs on each row it records. Returns the pass's `passTypeIdentifier`.
    public func check(
        template: PassTemplate, data: JSONObject, overrides: JSONObject = JSONObject(), images: PassImages = .none
    ) throws(PassmintError) -> String {
        try prepare(template: template, data: data, overrides: overrides, images: images, writesJSON: false).passTypeIdentifier
    }

    private func prepare(
        template: PassTemplate, data: JSONObject, overrides: JSONObject, images: PassImages, writesJSON: Bool
    ) throws(PassmintError) -> PreparedPass {
        try refuseErrors(template.diagnostics, source: template.folder)
        var rendered = try template.render(data: data)
        for member in overrides { rendered[member.key] = member.value }
        if !images.isEmpty { try images.check(style: PassJSONValidator.styleKeys.first { rendered[$0] != nil }) }
        var prepared = try prepare(
            passJSON: rendered, files: images.applied(to: try template.renderFiles(data: data)),
            source: template.folder + "/pass.json", checkFiles: false, writesJSON: writesJSON, lintMemo: template.lintMemo)
        let identity = try identities.identity(for: prepared.passTypeIdentifier)
        prepared.warnings = relevant(template.diagnostics, identity: identity) + prepared.warnings
        prepared.archivePrefix = template.archivePrefix
        return prepared
    }

    /// Builds a pass from the typed model and its files (images, `.lproj` strings).
    public func build(pass: Pass, files: [PassFile]) throws(PassmintError) -> BuiltPass {
        try build(passJSON: pass.jsonObject(), files: files, source: "pass.json")
    }

    /// Builds a pass from a `pass.json` object and its files. `source` names `pass.json` in errors.
    ///
    /// When `passTypeIdentifier` or `teamIdentifier` is absent it is taken from the certificate (UID and OU);
    /// when present it must match the certificate.
    public func build(passJSON: JSONObject, files: [PassFile], source: String) throws(PassmintError) -> BuiltPass {
        try build(passJSON: passJSON, files: files, source: source, checkFiles: true)
    }

    /// Throws when any diagnostic is an error, listing all of them.
    private func refuseErrors(_ diagnostics: [Diagnostic], source: String) throws(PassmintError) {
        let errors = diagnostics.filter { $0.severity == .error }
        guard !errors.isEmpty else { return }
        let lines = errors.map { diagnostic in
            let location = [diagnostic.file == "pass.json" ? "" : diagnostic.file, diagnostic.path].filter { !$0.isEmpty }.joined(
                separator: " ")
            return "  \(location.isEmpty ? "" : location + ": ")\(diagnostic.message) [\(diagnostic.code)] (fix: \(diagnostic.fix))"
        }
        throw PassmintError(.invalidPass, "\(source) is not a valid pass:\n" + lines.joined(separator: "\n"))
    }

    /// Drops the NFC-certificate reminder when the certificate is an NFC one.
    private func relevant(_ diagnostics: [Diagnostic], identity: SigningIdentity) -> [Diagnostic] {
        // The certificate's name is read only when it matters (it costs an OpenSSL call per pass).
        let nfcCertificate =
            diagnostics.contains { $0.code == "nfc-certificate" } && identity.certificate.commonName?.contains("with NFC") == true
        return diagnostics.filter { $0.severity == .warning && !(nfcCertificate && $0.code == "nfc-certificate") }
    }

    private func build(passJSON: JSONObject, files: [PassFile], source: String, checkFiles: Bool) throws(PassmintError) -> BuiltPass {
        try sign(try prepare(passJSON: passJSON, files: files, source: source, checkFiles: checkFiles))
    }

    private func prepare(
        passJSON: JSONObject, files: [PassFile], source: String, checkFiles: Bool, writesJSON: Bool = true,
        lintMemo: LintMemoSlot? = nil
    ) throws(PassmintError) -> PreparedPass {
        var json = passJSON
        let identity = try chooseIdentity(for: json, source: source)
        if json["passTypeIdentifier"] == nil, let uid = identity.certificate.userID { json["passTypeIdentifier"] = .string(uid) }
        if json["teamIdentifier"] == nil, let ou = identity.certificate.organizationalUnit { json["teamIdentifier"] = .string(ou) }

        var diagnostics = lintMemo?.lint(json, options: options.lint) ?? PassLinter.lintJSON(json, options: options.lint)
        if checkFiles { diagnostics += PassLinter.lintFiles(files.map { PassContents.File(path: $0.path, bytes: $0.bytes) }, pass: json) }
        try refuseErrors(diagnostics, source: source)
        let passTypeIdentifier = json["passTypeIdentifier"]!.stringValue!
        let teamIdentifier = json["teamIdentifier"]!.stringValue!
        let serialNumber = json["serialNumber"]!.stringValue!
        try identity.checkCanSign(
            passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier, at: options.now ?? Date(),
            allowExpired: options.allowExpired)

        for file in files where ["pass.json", "manifest.json", "signature"].contains(file.path) {
            throw PassmintError(.invalidTemplate, "\(file.path) is made by Passmint and cannot be one of the pass's files")
        }
        return PreparedPass(
            passJSON: writesJSON ? JSONWriter.data(.object(json)) : [], files: files, passTypeIdentifier: passTypeIdentifier,
            serialNumber: serialNumber, warnings: relevant(diagnostics, identity: identity))
    }

    /// The identity for the pass's `passTypeIdentifier`; without one, the only identity (whose UID fills it in).
    private func chooseIdentity(for json: JSONObject, source: String) throws(PassmintError) -> SigningIdentity {
        if let type = json["passTypeIdentifier"]?.stringValue { return try identities.identity(for: type) }
        if let sole = identities.sole { return sole }
        if json["passTypeIdentifier"] != nil { return identities.all[0] }  // not a string: lint says so
        throw PassmintError(
            .invalidPass,
            "\(source) has no passTypeIdentifier, and \(identities.source) holds several identities (\(identities.passTypeIdentifiers.joined(separator: ", "))): set passTypeIdentifier to the one to sign with"
        )
    }

    /// Writes the manifest, signs it and zips the pass.
    public func sign(_ prepared: PreparedPass) throws(PassmintError) -> BuiltPass {
        let signed = try signArchive(prepared)
        return BuiltPass(
            archive: signed.archive.bytes, passJSON: prepared.passJSON, manifest: signed.manifest, signature: signed.signature,
            passTypeIdentifier: prepared.passTypeIdentifier, serialNumber: prepared.serialNumber, warnings: prepared.warnings)
    }

    /// ``sign(_:)`` with the archive in its parts (``PassArchive``): the template's entries are not copied. For the batch.
    package func signArchive(_ prepared: PreparedPass) throws(PassmintError) -> (
        archive: PassArchive, manifest: [UInt8], signature: [UInt8]
    ) {
        let manifest = Self.manifest(passJSON: prepared.passJSON, files: prepared.files)
        let signature = try identities.identity(for: prepared.passTypeIdentifier).signDetached(manifest)
        let archive = try PassArchive.make(
            prefix: prepared.archivePrefix, files: prepared.files, passJSON: prepared.passJSON, manifest: manifest, signature: signature)
        return (archive, manifest, signature)
    }

    /// `manifest.json`: every file's path → lowercase hex SHA-1 of its bytes, keys sorted.
    static func manifest(passJSON: [UInt8], files: [PassFile]) -> [UInt8] {
        var hashes = files.map { ($0.path, $0.sha1) }
        hashes.append(("pass.json", Digest.sha1Hex(passJSON)))
        hashes.sort { $0.0 < $1.0 }
        var object = JSONObject()
        for (path, hash) in hashes { object[path] = .string(hash) }
        return JSONWriter.data(.object(object))
    }
}
