import Foundation
import Passmint

/// An Apple Pay payment token as the app or the web page sends it: its `paymentData` (what Apple signed and
/// encrypted) and, when the whole `PKPaymentToken` was sent, its `paymentMethod` and `transactionIdentifier`.
/// Parse it with ``init(json:)``; nothing in it is secret until it is decrypted.
public struct PaymentToken: Sendable, Hashable {
    /// How the payment data is encrypted.
    public enum Version: String, Sendable, Hashable, CaseIterable {
        /// ECDH on P-256 with the merchant's EC key, AES-256-GCM.
        case ecV1 = "EC_v1"
        /// An AES-128 key wrapped with RSA-OAEP (SHA-256) to the merchant's RSA key, AES-128-GCM (used in China).
        case rsaV1 = "RSA_v1"

        /// The merchant key type this version needs, as OpenSSL names it (`EC`, `RSA`).
        public var keyAlgorithm: String { self == .ecV1 ? "EC" : "RSA" }
    }

    /// `paymentData.header`.
    public struct Header: Sendable, Hashable {
        /// EC_v1: the ephemeral public key (DER SubjectPublicKeyInfo, P-256).
        public var ephemeralPublicKey: [UInt8]?
        /// `ephemeralPublicKey` as the parse decoded it (see ``ephemeralKey``).
        var parsedEphemeralKey: EphemeralKey?
        /// RSA_v1: the wrapped symmetric key.
        public var wrappedKey: [UInt8]?
        /// Base64 SHA-256 of the merchant public key's DER SubjectPublicKeyInfo: which merchant key the token is for.
        public var publicKeyHash: String
        /// The transaction identifier the device made (hex in the token).
        public var transactionId: [UInt8]
        /// The SHA-256 of the payment request's `applicationData`, when the request had one (hex in the token).
        public var applicationData: [UInt8]?

        /// The transaction identifier as lowercase hex: the key to refuse a token seen before.
        public var transactionIdHex: String { hexString(transactionId) }
    }

    /// `paymentMethod` of a whole `PKPaymentToken` (nothing in it is secret: `displayName` is like "Visa 0224").
    public struct PaymentMethod: Sendable, Hashable {
        public var displayName: String?
        public var network: String?
        public var type: String?

        public init(displayName: String? = nil, network: String? = nil, type: String? = nil) {
            self.displayName = displayName
            self.network = network
            self.type = type
        }
    }

    public var version: Version
    /// The encrypted payment data: ciphertext followed by the 16-byte GCM tag.
    public var data: [UInt8]
    /// The detached CMS signature (DER).
    public var signature: [UInt8]
    public var header: Header
    public var paymentMethod: PaymentMethod?
    /// `transactionIdentifier` of a whole `PKPaymentToken`.
    public var transactionIdentifier: String?

    /// The bytes Apple signs: `ephemeralPublicKey` (or `wrappedKey`) ‖ `data` ‖ `transactionId` ‖ `applicationData`.
    public var signedBytes: [UInt8] {
        (header.ephemeralPublicKey ?? header.wrappedKey ?? []) + data + header.transactionId + (header.applicationData ?? [])
    }

    public init(
        version: Version, data: [UInt8], signature: [UInt8], header: Header, paymentMethod: PaymentMethod? = nil,
        transactionIdentifier: String? = nil
    ) {
        self.version = version
        self.data = data
        self.signature = signature
        self.header = header
        self.paymentMethod = paymentMethod
        self.transactionIdentifier = transactionIdentifier
    }
}
