/// Every error Passmint throws. The ``description`` says what went wrong, where (file, key or row) and what to
/// do next; it never contains key material, passphrases or tokens.
public struct PassmintError: CodedError, CustomDebugStringConvertible, Equatable {
    /// What kind of failure this is. Compare codes, not messages.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// A template folder, `pass.json` or data file is malformed or incomplete.
        public static let invalidTemplate = Code("invalid-template")
        /// Per-pass data is malformed or a placeholder has no value.
        public static let invalidData = Code("invalid-data")
        /// `pass.json` breaks a rule Wallet enforces (missing key, wrong type, …).
        public static let invalidPass = Code("invalid-pass")
        /// `order.json` breaks a rule Wallet enforces (missing key, wrong type, a status that cannot follow the last).
        public static let invalidOrder = Code("invalid-order")
        /// An image is missing or is not a PNG.
        public static let invalidImage = Code("invalid-image")
        /// The certificate, key, `.p12` or WWDR file cannot be used for signing.
        public static let invalidIdentity = Code("invalid-identity")
        /// The certificate does not belong to the pass (UID/OU mismatch) or is expired.
        public static let identityMismatch = Code("identity-mismatch")
        /// OpenSSL failed to produce a signature.
        public static let signingFailed = Code("signing-failed")
        /// libzip failed to build or read an archive.
        public static let archiveFailed = Code("archive-failed")
        /// Reading or writing a file failed.
        public static let fileSystem = Code("file-system")

        public var description: String { name }
    }

    public var code: Code
    /// The human message: what is wrong, where, and what to do.
    public var message: String
    /// Text drained from OpenSSL's or libzip's error queue, for logs.
    public var libraryErrors: [String]
    /// Every finding behind the error, when it has several: each lint error of an ``Code/invalidPass``, each missing
    /// value of an ``Code/invalidData`` (``Diagnostic/placeholder`` names the data value when one is concerned).
    public var diagnostics: [Diagnostic]

    public init(_ code: Code, _ message: String, libraryErrors: [String] = [], diagnostics: [Diagnostic] = []) {
        self.code = code
        self.message = message
        self.libraryErrors = libraryErrors
        self.diagnostics = diagnostics
    }

    public var debugDescription: String {
        libraryErrors.isEmpty ? "[\(code)] \(message)" : "[\(code)] \(message) (\(libraryErrors.joined(separator: "; ")))"
    }

    public static func == (lhs: PassmintError, rhs: PassmintError) -> Bool { lhs.code == rhs.code }
}
