internal import CPassmintOpenSSL
import Foundation

/// ECDSA P-256 with SHA-256 (JOSE `ES256`) signatures in the raw `r || s` form JSON Web Tokens use, made with
/// OpenSSL. The key is an APNs auth key (`AuthKey_<KEYID>.p8`, an unencrypted PKCS#8 PEM P-256 key).
public struct ES256Signer: Sendable {
    public let key: PrivateKey

    /// Wraps a loaded key; it must be an EC key on P-256.
    public init(key: PrivateKey, source: String = "the key") throws(PassmintError) {
        guard EVP_PKEY_get_base_id(key.pointer) == EVP_PKEY_EC, key.bits == 256 else {
            throw PassmintError(
                .invalidIdentity,
                "\(source) is not a P-256 EC key (an APNs auth key AuthKey_<KEYID>.p8 from developer.apple.com → Keys is one)")
        }
        self.key = key
    }

    /// Reads a `.p8` file.
    public init(p8Path path: String) throws(PassmintError) {
        try self.init(key: try PrivateKey(contentsOf: path, passphrase: nil), source: path)
    }

    /// Signs `message`: 64 bytes, `r` then `s`, each big-endian and left-padded to 32 bytes.
    public func sign(_ message: [UInt8]) throws(PassmintError) -> [UInt8] {
        let der = try key.signSHA256(message, algorithm: "ES256")
        guard let raw = Self.rawSignature(fromDER: der) else {
            throw PassmintError(.signingFailed, "OpenSSL returned an ECDSA signature Passmint cannot read")
        }
        return raw
    }

    /// Converts a DER `ECDSA-Sig-Value` (SEQUENCE of two INTEGERs) to `r || s`, 32 bytes each.
    static func rawSignature(fromDER der: [UInt8]) -> [UInt8]? {
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { return nil }
        defer { ECDSA_SIG_free(signature) }
        var output = [UInt8](repeating: 0, count: 64)
        let written = output.withUnsafeMutableBufferPointer { buffer in
            (
                BN_bn2binpad(ECDSA_SIG_get0_r(signature), buffer.baseAddress, 32),
                BN_bn2binpad(ECDSA_SIG_get0_s(signature), buffer.baseAddress! + 32, 32)
            )
        }
        return written == (32, 32) ? output : nil
    }
}
