import Foundation
public import Passmint

/// One Apple Pay payment processing certificate and its private key. Several are held at once while an old and a new
/// certificate overlap; a token's `publicKeyHash` says which one it was encrypted to.
public struct MerchantKey: Sendable {
    /// The OID under which a payment processing certificate carries the merchant identifier's SHA-256 (hex text).
    public static let merchantIdentifierOID = "1.2.840.113635.100.6.32"

    public let certificate: Certificate
    public let privateKey: PrivateKey
    /// The SHA-256 of the merchant identifier, from the certificate (32 bytes): part of the EC_v1 key derivation.
    public let merchantIdentifierHash: [UInt8]
    /// Base64 SHA-256 of the certificate's DER SubjectPublicKeyInfo: what a token's `header.publicKeyHash` names.
    public let publicKeyHash: String
    /// Whether the private key is the certificate's (a token cannot decrypt otherwise).
    public let keyMatchesCertificate: Bool

    /// Reads the merchant identifier hash from `certificate`; throws when it has none or the key type is neither EC
    /// (EC_v1) nor RSA (RSA_v1). A key that is not the certificate's is reported by ``keyMatchesCertificate``.
    public init(certificate: Certificate, privateKey: PrivateKey) throws(PaymentTokenError) {
        let name = Self.name(of: certificate)
        guard let value = certificate.extensionValue(oid: Self.merchantIdentifierOID) else {
            throw PaymentTokenError(
                .invalidMerchantKey,
                "\(name) carries no merchant identifier (OID \(Self.merchantIdentifierOID)): give the Apple Pay Payment Processing certificate of the merchant ID, not its Merchant Identity certificate"
            )
        }
        guard let hash = Self.identifierHash(value) else {
            throw PaymentTokenError(
                .invalidMerchantKey,
                "\(name)'s merchant identifier extension (OID \(Self.merchantIdentifierOID)) is not the 64 hex digits of a SHA-256: is it an Apple Pay Payment Processing certificate?"
            )
        }
        guard ["EC", "RSA"].contains(privateKey.algorithm) else {
            throw PaymentTokenError(
                .invalidMerchantKey, "the key of \(name) is \(privateKey.algorithm): Apple Pay uses EC P-256 (EC_v1) or RSA (RSA_v1) keys")
        }
        self.certificate = certificate
        self.privateKey = privateKey
        merchantIdentifierHash = hash
        publicKeyHash = Data(OpenSSL.sha256(certificate.publicKeyDER)).base64EncodedString()
        keyMatchesCertificate = certificate.matches(privateKey)
    }

    /// Reads a certificate (PEM or DER) and a PEM private key.
    public init(certificatePath: String, keyPath: String, passphrase: String? = nil) throws {
        try self.init(
            certificate: try Certificate(contentsOf: certificatePath),
            privateKey: try PrivateKey(contentsOf: keyPath, passphrase: passphrase))
    }

    /// The merchant identifier, from the certificate's UID (`merchant.com.example`).
    public var merchantIdentifier: String? { certificate.userID }

    /// The token version this key decrypts.
    public var version: PaymentToken.Version { privateKey.algorithm == "RSA" ? .rsaV1 : .ecV1 }

    /// The merchant identifier hash as lowercase hex.
    public var merchantIdentifierHashHex: String { hexString(merchantIdentifierHash) }

    /// How errors name this key: its hash, merchant identifier and type.
    public var summary: String { "\(publicKeyHash) (\(merchantIdentifier ?? Self.name(of: certificate)), \(privateKey.algorithm))" }

    static func name(of certificate: Certificate) -> String {
        certificate.commonName.map { "the certificate CN=\($0)" } ?? "the certificate \(certificate.subject)"
    }

    /// The extension's value: a DER string (UTF8String, IA5String or PrintableString) of 64 hex digits, as Apple
    /// writes it; or, leniently, the 64 digits bare or 32 bytes in an OCTET STRING.
    static func identifierHash(_ value: [UInt8]) -> [UInt8]? {
        if value.count == 66, [0x0C, 0x16, 0x13].contains(value[0]), value[1] == 64 {
            return hexBytes(String(decoding: value[2...], as: UTF8.self))
        }
        if value.count == 64 { return hexBytes(String(decoding: value, as: UTF8.self)) }
        if value.count == 34, value[0] == 0x04, value[1] == 32 { return Array(value[2...]) }
        return nil
    }
}
