internal import CPassmintOpenSSL
import Foundation
import Passmint

/// The raw cryptography one payment token costs, with libcrypto directly: the ceiling `passmint pay bench` prints
/// beside the tokens decrypted per second. One operation is the token's key agreement (EC_v1: its ephemeral key
/// decoded from DER and one P-256 ECDH derive with it; RSA_v1: one RSA-OAEP unwrap of its wrapped key), one ECDSA P-256 SHA-256 verification of a
/// message as long as the bytes Apple signs, and one AES-GCM open of its `data`. No parsing, no certificate chain, no
/// CMS: what is left when everything but the arithmetic is free. For benchmarks: not part of the library's API.
package final class PaymentCryptoCeiling: @unchecked Sendable {
    private let token: PaymentToken
    private let key: MerchantKey
    /// A P-256 key made for the bench, and its signature over `message`.
    private let signingKey: PrivateKey
    private let message: [UInt8]
    private let signature: [UInt8]

    /// Prepares the operation for `token` with the merchant key it was encrypted to; nil when libcrypto cannot make
    /// the P-256 key or its signature.
    package init?(token: PaymentToken, key: MerchantKey) {
        self.token = token
        self.key = key
        guard let generated = Self.generateP256() else { return nil }
        signingKey = PrivateKey(taking: generated)
        message = token.signedBytes
        guard let signature = Self.sign(message, key: signingKey) else { return nil }
        self.signature = signature
    }

    /// One operation; false when any step fails (a token that does not decrypt with its key).
    package func run() -> Bool {
        var token = token
        // EC_v1: the ephemeral key decoded from its DER, once, as a token's parse must (it keeps it for the ECDH).
        token.header.parsedEphemeralKey = token.header.ephemeralPublicKey.flatMap { EphemeralKey(p256DER: $0) }
        guard let symmetricKey = PaymentCrypto.symmetricKey(token, key) else { return false }
        return verify() && PaymentCrypto.open(token.data, key: symmetricKey) != nil
    }

    private func verify() -> Bool {
        defer { ERR_clear_error() }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        return EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, signingKey.pointer) == 1
            && EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }

    private static func sign(_ message: [UInt8], key: PrivateKey) -> [UInt8]? {
        defer { ERR_clear_error() }
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.pointer) == 1,
            EVP_DigestSign(context, nil, &length, message, message.count) == 1
        else { return nil }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else { return nil }
        return Array(signature.prefix(length))
    }

    private static func generateP256() -> OpaquePointer? {
        defer { ERR_clear_error() }
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
            EVP_PKEY_keygen(context, &key) == 1
        else { return nil }
        return key
    }
}
