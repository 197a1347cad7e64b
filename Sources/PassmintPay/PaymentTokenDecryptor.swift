public import Foundation
import Passmint

/// Verifies and decrypts Apple Pay payment tokens with the merchant keys it holds (several at once while payment
/// processing certificates rotate). Immutable and `Sendable`: a service builds one from its settings and shares it;
/// to rotate, build a new one.
public struct PaymentTokenDecryptor: Sendable {
    public let merchantKeys: [MerchantKey]
    public let verifier: PaymentSignatureVerifier

    /// Refuses no keys, and a key that is not its certificate's.
    public init(merchantKeys: [MerchantKey], verifier: PaymentSignatureVerifier) throws(PaymentTokenError) {
        guard !merchantKeys.isEmpty else {
            throw PaymentTokenError(.invalidMerchantKey, "no merchant key: give a payment processing certificate and its private key")
        }
        if let mismatched = merchantKeys.first(where: { !$0.keyMatchesCertificate }) {
            throw PaymentTokenError(
                .invalidMerchantKey,
                "the private key given with \(MerchantKey.name(of: mismatched.certificate)) (publicKeyHash \(mismatched.publicKeyHash)) is not that certificate's key: pair each certificate with its own key"
            )
        }
        self.merchantKeys = merchantKeys
        self.verifier = verifier
    }

    /// Parses, verifies and decrypts a token's JSON at `time` (default: now).
    public func decrypt(json: [UInt8], at time: Date = Date()) throws(PaymentTokenError) -> DecryptedPayment {
        try decrypt(try PaymentToken(json: json), at: time)
    }

    /// Verifies `token`'s signature at `time` (default: now), picks the key its `publicKeyHash` names, and decrypts.
    public func decrypt(_ token: PaymentToken, at time: Date = Date()) throws(PaymentTokenError) -> DecryptedPayment {
        let verified = try verifier.verify(token, at: time)
        let key = try key(for: token)
        let plaintext = try open(token, with: key)
        return try DecryptedPayment(decrypted: plaintext, token: token, signingTime: verified.signingTime, key: key)
    }

    /// The held key `token` was encrypted to; an error naming the token's hash and those held when none is.
    public func key(for token: PaymentToken) throws(PaymentTokenError) -> MerchantKey {
        if let key = merchantKeys.first(where: { $0.publicKeyHash == token.header.publicKeyHash }) {
            guard key.version == token.version else {
                throw PaymentTokenError(
                    .noMatchingKey,
                    "cannot decrypt: the \(token.version.rawValue) token names the \(key.privateKey.algorithm) key \(key.summary)")
            }
            return key
        }
        let held = merchantKeys.map(\.summary).joined(separator: ", ")
        if !merchantKeys.contains(where: { $0.version == token.version }) {
            throw PaymentTokenError(
                .noMatchingKey,
                "cannot decrypt: this \(token.version.rawValue) token needs an \(token.version.keyAlgorithm) payment processing key (it was encrypted to key hash \(token.header.publicKeyHash)); you hold only \(merchantKeys[0].privateKey.algorithm) keys: \(held)"
            )
        }
        throw PaymentTokenError(
            .noMatchingKey,
            "cannot decrypt: the token was encrypted to key hash \(token.header.publicKeyHash); you hold keys with hashes \(held): give the payment processing certificate and key whose hash that is (passmint pay keys prints a key's hash)"
        )
    }

    private func open(_ token: PaymentToken, with key: MerchantKey) throws(PaymentTokenError) -> [UInt8] {
        guard let symmetricKey = PaymentCrypto.symmetricKey(token, key) else {
            throw PaymentTokenError(
                .decryptionFailed,
                token.version == .ecV1
                    ? "cannot decrypt: ECDH of the key \(key.summary) with header.ephemeralPublicKey failed (is the key P-256?)"
                    : "cannot decrypt: RSA-OAEP (SHA-256) cannot unwrap header.wrappedKey with the key \(key.summary)")
        }
        guard let plaintext = PaymentCrypto.open(token.data, key: symmetricKey) else {
            throw PaymentTokenError(
                .decryptionFailed,
                "cannot decrypt: the AES-GCM tag does not match with the key \(key.summary) and merchant identifier hash \(key.merchantIdentifierHashHex): the certificate is for another merchant ID than the token's"
            )
        }
        return plaintext
    }
}
