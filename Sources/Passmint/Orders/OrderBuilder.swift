public import Foundation

/// A signed order package, ready to write or serve.
public struct BuiltOrder: Sendable {
    /// The `.order` archive bytes (MIME type ``mimeType``).
    public var archive: [UInt8]
    /// The exact `order.json` bytes inside the archive.
    public var orderJSON: [UInt8]
    /// The exact `manifest.json` bytes (SHA-256 of every file).
    public var manifest: [UInt8]
    /// The DER PKCS#7 detached signature of ``manifest``.
    public var signature: [UInt8]
    public var orderTypeIdentifier: String
    public var orderIdentifier: String
    /// Lint warnings: findings that did not stop the build.
    public var warnings: [Diagnostic]

    /// The MIME type to serve an order with.
    public static let mimeType = "application/vnd.apple.finance.order"
    /// The file extension of an order package.
    public static let fileExtension = "order"
}

/// Builds signed `.order` packages: renders `order.json`, checks it (``OrderLinter``), writes `manifest.json` with the
/// SHA-256 of every file, signs it with the Order Type ID certificate (UID `order.…`, the WWDR intermediate in the
/// signature, as for passes) and zips everything with Passmint's ZIP writer.
///
/// ```swift
/// let identity = try SigningIdentity(certificatePath: "Certificates/order/signer.pem",
///                                    keyPath: "Certificates/order/signer.key", passphrase: nil, wwdrPath: nil)
/// let template = try OrderTemplate(folder: "OrderTemplates/Shipment.order")
/// let order = try OrderBuilder(identity: identity).build(template: template, data: ["orderIdentifier": "A1"])
/// try FileIO.writeAtomically(order.archive, to: "A1.order")
/// ```
public struct OrderBuilder: SigningBuilder {
    public struct Options: Sendable {
        /// Sign with a certificate outside its validity period (for tests only; Wallet refuses such orders).
        public var allowExpired: Bool
        /// The time the certificate's validity is checked against; now when nil.
        public var now: Date?

        public init(allowExpired: Bool = false, now: Date? = nil) {
            self.allowExpired = allowExpired
            self.now = now
        }
    }

    /// The identities orders are signed with: each order by the one whose UID is its `orderTypeIdentifier`.
    public let identities: SigningIdentities
    public var options: Options

    public init(identities: SigningIdentities, options: Options = .init()) {
        self.identities = identities
        self.options = options
    }

    /// Builds an order from a template and its data (placeholder name → value).
    public func build(template: OrderTemplate, data: JSONObject) throws(PassmintError) -> BuiltOrder {
        try build(orderJSON: try template.render(data: data), files: template.files, source: template.folder + "/order.json")
    }

    /// Builds an order from the typed model and its files (images, `<lang>.lproj/order.strings`).
    public func build(order: Order, files: [PassFile]) throws(PassmintError) -> BuiltOrder {
        try build(orderJSON: order.jsonObject(), files: files, source: "order.json")
    }

    /// Builds an order from an `order.json` object and its files. `source` names `order.json` in errors.
    ///
    /// When `orderTypeIdentifier` is absent it is taken from the certificate's UID (a builder with one identity).
    public func build(orderJSON: JSONObject, files: [PassFile], source: String) throws(PassmintError) -> BuiltOrder {
        var json = orderJSON
        if json["orderTypeIdentifier"] == nil, let uid = identities.sole?.certificate.userID { json["orderTypeIdentifier"] = .string(uid) }
        for file in files where ["order.json", "manifest.json", "signature"].contains(file.path) {
            throw PassmintError(.invalidTemplate, "\(file.path) is made by Passmint and cannot be one of the order's files")
        }
        let type = json["orderTypeIdentifier"]?.stringValue ?? ""
        let identity = try identities.identity(for: type)
        try OrderSigner.check(identity, orderTypeIdentifier: type, at: options.now ?? Date(), allowExpired: options.allowExpired)
        let diagnostics = OrderLinter.lint(json: json, files: files.map { PassContents.File(path: $0.path, bytes: $0.bytes) })
        let errors = diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else {
            let lines = errors.map {
                "  \($0.file == "order.json" ? "" : $0.file + " ")\($0.path): \($0.message) [\($0.code)] (fix: \($0.fix))"
            }
            throw PassmintError(.invalidOrder, "\(source) is not a valid order:\n" + lines.joined(separator: "\n"))
        }
        let bytes = JSONWriter.data(.object(json))
        let manifest = Self.manifest(orderJSON: bytes, files: files)
        let signature = try identity.signDetached(manifest)
        let archive = try Self.archive(files: files, orderJSON: bytes, manifest: manifest, signature: signature)
        return BuiltOrder(
            archive: archive, orderJSON: bytes, manifest: manifest, signature: signature, orderTypeIdentifier: type,
            orderIdentifier: json["orderIdentifier"]?.stringValue ?? "", warnings: diagnostics.filter { $0.severity == .warning })
    }
}

extension OrderBuilder {
    public static var defaultOptions: Options { Options() }

    /// `manifest.json` for an order: every file's path → lowercase hex SHA-256 of its bytes, keys sorted.
    static func manifest(orderJSON: [UInt8], files: [PassFile]) -> [UInt8] {
        PassArchive.manifest(files.map { ($0.path, Digest.sha256Hex($0.bytes)) } + [("order.json", Digest.sha256Hex(orderJSON))])
    }

    /// The `.order` package: a ZIP of the order's files, `order.json` and `manifest.json` (deflated at level 6) and the
    /// stored `signature`.
    static func archive(files: [PassFile], orderJSON: [UInt8], manifest: [UInt8], signature: [UInt8]) throws(PassmintError) -> [UInt8] {
        try PassArchive.make(files: files, json: ("order.json", orderJSON), manifest: manifest, signature: signature, level: 6).bytes
    }
}
