internal import CPassmintOpenSSL
import Foundation
import Passmint

/// The primitives of Apple Pay's encryption, with libcrypto: ECDH on P-256, the NIST SP 800-56A single-step KDF,
/// RSA-OAEP, AES-GCM with a 16-byte zero IV. Each returns nil on failure (its caller says why).
enum PaymentCrypto {
    /// The token's AES key with the merchant `key`: EC_v1, ECDH with its ephemeral key and the KDF; RSA_v1, its wrapped key
    /// unwrapped (RSA-OAEP with SHA-256, MGF1 with SHA-256, else SHA-1). Nil when that fails.
    static func symmetricKey(_ token: PaymentToken, _ key: MerchantKey) -> [UInt8]? {
        switch token.version {
        case .ecV1:
            guard let ephemeral = token.header.ephemeralKey, let secret = sharedSecret(privateKey: key.privateKey, peer: ephemeral) else {
                return nil
            }
            return derivedKey(sharedSecret: secret, merchantIdentifierHash: key.merchantIdentifierHash)
        case .rsaV1:
            guard let wrapped = token.header.wrappedKey else { return nil }
            return unwrap(wrapped, privateKey: key.privateKey, mgf1SHA256: true)
                ?? unwrap(wrapped, privateKey: key.privateKey, mgf1SHA256: false)
        }
    }

    /// The ECDH shared secret of `privateKey` and the ephemeral public key `peer`.
    static func sharedSecret(privateKey: PrivateKey, peer: EphemeralKey) -> [UInt8]? {
        defer { ERR_clear_error() }
        guard let context = EVP_PKEY_CTX_new(privateKey.pointer, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var length = 0
        guard EVP_PKEY_derive_init(context) == 1, EVP_PKEY_derive_set_peer(context, peer.pointer) == 1,
            EVP_PKEY_derive(context, nil, &length) == 1
        else { return nil }
        var secret = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_derive(context, &secret, &length) == 1 else { return nil }
        return Array(secret.prefix(length))
    }

    /// Apple's EC_v1 symmetric key: SHA-256(00000001 ‖ Z ‖ 0x0D "id-aes256-GCM" ‖ "Apple" ‖ merchant identifier hash).
    static func derivedKey(sharedSecret: [UInt8], merchantIdentifierHash: [UInt8]) -> [UInt8] {
        let otherInfo = [0x0D] + Array("id-aes256-GCM".utf8) + Array("Apple".utf8) + merchantIdentifierHash
        return OpenSSL.sha256([0, 0, 0, 1] + sharedSecret + otherInfo)
    }

    /// RSA-OAEP with SHA-256 (MGF1 with `mgf1SHA256` ? SHA-256 : SHA-1) and no label.
    static func unwrap(_ wrapped: [UInt8], privateKey: PrivateKey, mgf1SHA256: Bool) -> [UInt8]? {
        defer { ERR_clear_error() }
        guard let context = EVP_PKEY_CTX_new(privateKey.pointer, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_decrypt_init(context) == 1, EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_OAEP_PADDING) == 1,
            EVP_PKEY_CTX_set_rsa_oaep_md(context, EVP_sha256()) == 1,
            EVP_PKEY_CTX_set_rsa_mgf1_md(context, mgf1SHA256 ? EVP_sha256() : EVP_sha1()) == 1
        else { return nil }
        var length = 0
        guard EVP_PKEY_decrypt(context, nil, &length, wrapped, wrapped.count) == 1 else { return nil }
        var output = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_decrypt(context, &output, &length, wrapped, wrapped.count) == 1 else { return nil }
        return Array(output.prefix(length))
    }

    /// AES-GCM (128 or 256 by the key's length) with a 16-byte zero IV over `sealed`: the ciphertext and, last, the
    /// 16-byte tag. Nil when the tag does not match.
    static func open(_ sealed: [UInt8], key: [UInt8]) -> [UInt8]? {
        defer { ERR_clear_error() }
        guard sealed.count > 16, key.count == 16 || key.count == 32, let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        let cipher = key.count == 16 ? EVP_aes_128_gcm() : EVP_aes_256_gcm()
        let iv = [UInt8](repeating: 0, count: 16)
        let ciphertext = Array(sealed.dropLast(16))
        var tag = Array(sealed.suffix(16))
        var output = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var written: Int32 = 0
        var final: Int32 = 0
        guard EVP_DecryptInit_ex(context, cipher, nil, nil, nil) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, 16, nil) == 1,
            EVP_DecryptInit_ex(context, nil, nil, key, iv) == 1,
            EVP_DecryptUpdate(context, &output, &written, ciphertext, Int32(ciphertext.count)) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, 16, &tag) == 1
        else { return nil }
        let ok = output.withUnsafeMutableBufferPointer { buffer in
            EVP_DecryptFinal_ex(context, buffer.baseAddress! + Int(written), &final) == 1
        }
        return ok ? Array(output.prefix(Int(written + final))) : nil
    }
}
