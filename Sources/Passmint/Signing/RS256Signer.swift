internal import CPassmintOpenSSL
import Foundation

/// RSASSA-PKCS1-v1_5 with SHA-256 (JOSE `RS256`) signatures, made with OpenSSL, for JSON Web Tokens signed with an
/// RSA key (a Google Cloud service account's key).
package struct RS256Signer: Sendable {
    package let key: PrivateKey

    /// Wraps a loaded key; it must be an RSA key of at least 2048 bits.
    package init(key: PrivateKey, source: String = "the key") throws(PassmintError) {
        guard EVP_PKEY_get_base_id(key.pointer) == EVP_PKEY_RSA, key.bits >= 2048 else {
            throw PassmintError(
                .invalidIdentity,
                "\(source) is not an RSA key of 2048 bits or more (a Google service account key file's private_key is one)")
        }
        self.key = key
    }

    /// Signs `message` (the JWT's `header.claims`): the raw RSA signature, as long as the key's modulus.
    package func sign(_ message: [UInt8]) throws(PassmintError) -> [UInt8] {
        try key.signSHA256(message, algorithm: "RS256")
    }
}
