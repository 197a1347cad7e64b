internal import CPassmintOpenSSL
import Passmint

/// An EC_v1 token's ephemeral public key, decoded once when the token is parsed (where it is checked to be a P-256
/// point) and kept for the ECDH: OpenSSL 3 decodes a key through its provider decoders, a good part of a token's time.
final class EphemeralKey: @unchecked Sendable, Hashable {
    /// The DER SubjectPublicKeyInfo it was decoded from.
    let der: [UInt8]
    /// The decoded key; immutable, so concurrent ECDH with it is safe.
    let pointer: OpaquePointer

    /// Decodes `der`; nil when it is not exactly one SubjectPublicKeyInfo of a P-256 key.
    init?(p256DER der: [UInt8]) {
        guard let key = PublicKeyInfo.decode(der: der) else { return nil }
        guard PublicKeyInfo(key: key).isP256 else {
            EVP_PKEY_free(key)
            return nil
        }
        self.der = der
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    static func == (lhs: EphemeralKey, rhs: EphemeralKey) -> Bool { lhs.der == rhs.der }

    func hash(into hasher: inout Hasher) { hasher.combine(der) }
}

extension PaymentToken.Header {
    /// The decoded `ephemeralPublicKey`: the one kept from the parse while the bytes are still those, else decoded now
    /// (nil when there is none or it is not a P-256 key).
    var ephemeralKey: EphemeralKey? {
        guard let der = ephemeralPublicKey else { return nil }
        if let parsed = parsedEphemeralKey, parsed.der == der { return parsed }
        return EphemeralKey(p256DER: der)
    }
}
