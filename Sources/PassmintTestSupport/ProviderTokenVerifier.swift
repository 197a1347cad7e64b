internal import CPassmintOpenSSL
public import Foundation
import Passmint
import Synchronization

/// Checks APNs provider tokens the way APNs does, for the mock APNs server: a three-part JSON Web Token whose
/// header is `{"alg": "ES256", "kid": <key id>}`, whose claims are `{"iss": <team>, "iat": <seconds>}` not older
/// than an hour, and whose `r || s` signature verifies with the key's public half. Written apart from Passmint's
/// signer (it rebuilds the DER signature from `r` and `s` and verifies with OpenSSL's EVP API). A token whose signature
/// verified is remembered with its `iat` (its age is still checked each time): a client sends the same token for up to
/// an hour, and one signature check per push would make the campaign benchmark's stand-in its bottleneck.
public final class ProviderTokenVerifier: @unchecked Sendable {
    // @unchecked: the EVP_PKEY is only read after init; OpenSSL allows concurrent verification with one key.
    private let publicKey: OpaquePointer
    /// `iat` of each token that verified, by `authorization` value.
    private let verified = Mutex<[String: Int]>([:])
    public let keyIdentifier: String
    public let teamIdentifier: String

    /// `publicKeyPEM`: `-----BEGIN PUBLIC KEY-----` (`openssl pkey -in AuthKey.p8 -pubout`).
    public init(publicKeyPEM: URL, keyIdentifier: String, teamIdentifier: String) throws {
        let pem = try Data(contentsOf: publicKeyPEM)
        let key: OpaquePointer? = pem.withUnsafeBytes { buffer in
            let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count))
            defer { BIO_free(bio) }
            return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        guard let key else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(publicKeyPEM.path) is not a PEM public key"])
        }
        publicKey = key
        self.keyIdentifier = keyIdentifier
        self.teamIdentifier = teamIdentifier
    }

    deinit { EVP_PKEY_free(publicKey) }

    /// nil when the `authorization` header carries a valid token; otherwise APNs's reason.
    public func problem(authorization: String?, now: Date = Date()) -> String? {
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else { return "MissingProviderToken" }
        if let issuedAt = verified.withLock({ $0[authorization] }) { return Self.age(issuedAt, now: now) }
        let parts = authorization.dropFirst("bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Self.base64URL(parts[0]), let claimsBytes = Self.base64URL(parts[1]),
            let signature = Self.base64URL(parts[2]),
            let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: Data(claimsBytes)) as? [String: Any]
        else { return "InvalidProviderToken" }
        guard header["alg"] as? String == "ES256", header["kid"] as? String == keyIdentifier, claims["iss"] as? String == teamIdentifier,
            let issuedAt = claims["iat"] as? Int
        else { return "InvalidProviderToken" }
        guard verify(signature: signature, message: Array((parts[0] + "." + parts[1]).utf8)) else { return "InvalidProviderToken" }
        verified.withLock { $0[authorization] = issuedAt }
        return Self.age(issuedAt, now: now)
    }

    /// APNs refuses a token issued more than an hour ago.
    private static func age(_ issuedAt: Int, now: Date) -> String? {
        now.timeIntervalSince1970 - Double(issuedAt) <= 3600 ? nil : "ExpiredProviderToken"
    }

    private func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        guard signature.count == 64, let ecdsa = ECDSA_SIG_new() else { return false }
        defer { ECDSA_SIG_free(ecdsa) }
        let r = BN_bin2bn(signature, 32, nil)
        let s = signature.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard ECDSA_SIG_set0(ecdsa, r, s) == 1 else { return false }
        var derPointer: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(ecdsa, &derPointer)
        guard length > 0, let derPointer else { return false }
        defer { CRYPTO_free(derPointer, #file, #line) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, publicKey) == 1 else { return false }
        return EVP_DigestVerify(context, derPointer, Int(length), message, message.count) == 1
    }

    private static func base64URL(_ text: Substring) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map(Array.init)
    }
}
