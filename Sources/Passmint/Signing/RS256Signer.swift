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
        ERR_clear_error()
        guard let context = EVP_MD_CTX_new() else { throw PassmintError(.signingFailed, "OpenSSL could not allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.pointer) == 1,
            message.withUnsafeBytes({ EVP_DigestSign(context, nil, &length, $0.bindMemory(to: UInt8.self).baseAddress, message.count) })
                == 1
        else { throw PassmintError(.signingFailed, "RS256 signing failed", libraryErrors: OpenSSL.drainErrors()) }
        var signature = [UInt8](repeating: 0, count: length)
        guard
            message.withUnsafeBytes({
                EVP_DigestSign(context, &signature, &length, $0.bindMemory(to: UInt8.self).baseAddress, message.count)
            }) == 1
        else { throw PassmintError(.signingFailed, "RS256 signing failed", libraryErrors: OpenSSL.drainErrors()) }
        signature.removeSubrange(length...)
        return signature
    }
}
