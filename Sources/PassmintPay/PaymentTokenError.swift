public import Passmint

/// Every error PassmintPay throws. The ``description`` says what went wrong, where (the token's JSON path, the
/// certificate) and what to do next; it never contains an account number, a cryptogram or key material.
public struct PaymentTokenError: CodedError, Equatable {
    /// What kind of failure this is. Compare codes, not messages.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The token's JSON is malformed: a key is missing, of the wrong type, or not base64/hex.
        public static let invalidToken = Code("invalid-token")
        /// `signature` is not a CMS SignedData Passmint can check (unreadable, several signers, a digest other than SHA-256, no signing time).
        public static let invalidSignature = Code("invalid-signature")
        /// The signature lacks Apple's leaf (OID 1.2.840.113635.100.6.29) or intermediate (1.2.840.113635.100.6.2.14).
        public static let missingCertificate = Code("missing-certificate")
        /// The certificates do not chain to Apple Root CA - G3 at the verification time.
        public static let untrustedChain = Code("untrusted-chain")
        /// The signature does not cover this token's bytes: something was altered after Apple signed it.
        public static let signatureMismatch = Code("signature-mismatch")
        /// The CMS signing time is outside the window around the verification time (an old token: a replay?).
        public static let signingTimeOutOfWindow = Code("signing-time-out-of-window")
        /// None of the merchant keys held is the one the token was encrypted to.
        public static let noMatchingKey = Code("no-matching-key")
        /// A merchant certificate or key cannot be used (no merchant identifier, key and certificate differ).
        public static let invalidMerchantKey = Code("invalid-merchant-key")
        /// The key was found but the payment data does not decrypt with it.
        public static let decryptionFailed = Code("decryption-failed")
        /// The decrypted payment data is not the JSON Apple documents.
        public static let invalidPaymentData = Code("invalid-payment-data")

        public var description: String { name }
    }

    public var code: Code
    /// The human message: what is wrong, where, and what to do.
    public var message: String
    /// Text drained from OpenSSL's error queue, for logs.
    public var libraryErrors: [String]

    public init(_ code: Code, _ message: String, libraryErrors: [String] = []) {
        self.code = code
        self.message = message
        self.libraryErrors = libraryErrors
    }

    public static func == (lhs: PaymentTokenError, rhs: PaymentTokenError) -> Bool { lhs.code == rhs.code && lhs.message == rhs.message }
}
