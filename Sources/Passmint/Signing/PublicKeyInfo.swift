internal import CPassmintOpenSSL
import Foundation
import Synchronization

/// Facts about a DER SubjectPublicKeyInfo, read with OpenSSL.
public struct PublicKeyInfo: Sendable, Hashable {
    /// `EC`, `RSA`, … as OpenSSL names the key type.
    public var algorithm: String
    /// The EC curve (`prime256v1` for P-256), nil for other key types.
    public var curve: String?

    /// Parses DER bytes; nil when they are not a SubjectPublicKeyInfo.
    public init?(der: [UInt8]) {
        guard let key = Self.decode(der: der) else { return nil }
        defer { EVP_PKEY_free(key) }
        self.init(key: key)
    }

    /// The facts of a decoded key.
    package init(key: OpaquePointer) {
        algorithm = EVP_PKEY_get0_type_name(key).map { String(cString: $0) } ?? "unknown"
        var name = [CChar](repeating: 0, count: 80)
        var length = 0
        if EVP_PKEY_get_utf8_string_param(key, "group", &name, name.count, &length) == 1 {
            curve = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        } else {
            curve = nil
        }
        ERR_clear_error()
    }

    /// Decodes exactly one DER SubjectPublicKeyInfo into an `EVP_PKEY` the caller frees; nil when the bytes are not one.
    package static func decode(der: [UInt8]) -> OpaquePointer? {
        ERR_clear_error()
        let key: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            let parsed = d2i_PUBKEY(nil, &cursor, buffer.count)
            // Trailing bytes mean this is not exactly one SubjectPublicKeyInfo.
            if let parsed, cursor != buffer.baseAddress! + buffer.count {
                EVP_PKEY_free(parsed)
                return nil
            }
            return parsed
        }
        if key == nil { ERR_clear_error() }
        return key
    }

    private static let cache = Mutex<[String: PublicKeyInfo?]>([:])

    /// Parses base64 DER, remembering the last few hundred keys: OpenSSL 3 decodes keys slowly, and every pass of a
    /// batch carries the same NFC key.
    static func cached(base64: String) -> PublicKeyInfo? {
        if let known = cache.withLock({ $0[base64] }) { return known }
        let info = Data(base64Encoded: base64).flatMap { PublicKeyInfo(der: [UInt8]($0)) }
        cache.withLock { entries in
            if entries.count >= 256 { entries.removeAll() }
            entries[base64] = info
        }
        return info
    }

    /// Whether this is an EC key on P-256, the key `nfc.encryptionPublicKey` must hold.
    public var isP256: Bool { algorithm == "EC" && (curve == "prime256v1" || curve == "P-256" || curve == "secp256r1") }
}
