internal import CPassmintOpenSSL
public import Foundation
import Passmint

/// Checks a service account's JWT-bearer assertion the way Google's token endpoint does (RFC 7523): three base64url
/// parts, header `alg: RS256` (and `kid`, when given, naming the account's key), an RSASSA-PKCS1-v1_5 SHA-256
/// signature that verifies with the account's public key, claims `iss` (the account's e-mail), `scope` holding the
/// Wallet scope, `aud` (the token endpoint), `iat` not in the future and `exp` after now and at most an hour after
/// `iat`. Written apart from the code under test: it verifies with OpenSSL's EVP API from the PEM public key.
public final class GoogleAssertionVerifier: @unchecked Sendable {
    // @unchecked: the EVP_PKEY is only read after init; OpenSSL allows concurrent verification with one key.
    private let publicKey: OpaquePointer
    public let clientEmail: String
    public let keyID: String
    public static let walletScope = "https://www.googleapis.com/auth/wallet_object.issuer"

    public init(account: TestServiceAccount) throws {
        let pem = try Data(contentsOf: account.publicKeyFile)
        let key: OpaquePointer? = pem.withUnsafeBytes { buffer in
            let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count))
            defer { BIO_free(bio) }
            return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        guard let key else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(account.publicKeyFile.path) is not a PEM key"])
        }
        publicKey = key
        clientEmail = account.clientEmail
        keyID = account.privateKeyID
    }

    deinit { EVP_PKEY_free(publicKey) }

    /// nil when `assertion` is valid for `audience` at `now`; otherwise Google's `error_description`.
    public func problem(assertion: String, audience: String, now: Date) -> String? {
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let claimsBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]), let header = try? JSONParser.value(headerBytes),
            let claims = try? JSONParser.value(claimsBytes)
        else { return "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe." }
        guard header["alg"]?.stringValue == "RS256" else { return "Invalid JWT: alg must be RS256" }
        if let kid = header["kid"]?.stringValue, kid != keyID { return "Invalid JWT Signature." }
        guard verify(signature: signature, message: Array((parts[0] + "." + parts[1]).utf8)) else { return "Invalid JWT Signature." }
        guard claims["iss"]?.stringValue == clientEmail else { return "Invalid JWT: iss is not a known service account" }
        let scopes = (claims["scope"]?.stringValue ?? "").split(separator: " ")
        guard scopes.contains(Substring(Self.walletScope)) else { return "Invalid JWT: scope must include \(Self.walletScope)" }
        guard claims["aud"]?.stringValue == audience else { return "Invalid JWT: aud must be \(audience)" }
        guard let issuedAt = claims["iat"]?.numberValue?.intValue, let expires = claims["exp"]?.numberValue?.intValue else {
            return "Invalid JWT: iat and exp are required"
        }
        let seconds = Int(now.timeIntervalSince1970)
        guard issuedAt <= seconds + 60, expires > seconds, expires - issuedAt <= 3600 else {
            return
                "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values"
        }
        return nil
    }

    /// Verifies an RS256 signature over `message`.
    public func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, publicKey) == 1 else { return false }
        let verified = EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        ERR_clear_error()
        return verified
    }
}
