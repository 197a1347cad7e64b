import Crypto
import Foundation
import Synchronization

/// Checks APNs provider tokens for the stand-in, as APNs does: `bearer <header>.<claims>.<signature>` with header
/// `{"alg":"ES256","kid":<key id>}`, claims `{"iss":<team>,"iat":<seconds>}` at most an hour old, and an ES256
/// (`r || s`) signature that verifies with the key's public half. Verified with swift-crypto, apart from the
/// OpenSSL signer that makes the tokens. A token that verified is remembered (with its `iat`, still checked for
/// age): a client sends the same token for up to an hour, and one signature check per push would make the stand-in
/// the bottleneck.
final class StandInTokenCheck: Sendable {
    private let verified = Mutex<[String: Int]>([:])
    let publicKey: P256.Signing.PublicKey
    let keyIdentifier: String
    let teamIdentifier: String

    init(publicKeyPEM: URL, keyIdentifier: String, teamIdentifier: String) throws {
        publicKey = try P256.Signing.PublicKey(pemRepresentation: String(contentsOf: publicKeyPEM, encoding: .utf8))
        self.keyIdentifier = keyIdentifier
        self.teamIdentifier = teamIdentifier
    }

    /// nil for a valid token; else APNs's reason.
    func problem(authorization: String?, now: Date = Date()) -> String? {
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else { return "MissingProviderToken" }
        if let issuedAt = verified.withLock({ $0[authorization] }) { return age(issuedAt, now: now) }
        let parts = authorization.dropFirst("bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Self.object(parts[0]), let claims = Self.object(parts[1]),
            let signatureBytes = Self.base64URL(parts[2]),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        else { return "InvalidProviderToken" }
        guard header["alg"] as? String == "ES256", header["kid"] as? String == keyIdentifier, claims["iss"] as? String == teamIdentifier,
            let issuedAt = claims["iat"] as? Int
        else { return "InvalidProviderToken" }
        guard publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)) else { return "InvalidProviderToken" }
        verified.withLock { $0[authorization] = issuedAt }
        return age(issuedAt, now: now)
    }

    private func age(_ issuedAt: Int, now: Date) -> String? {
        now.timeIntervalSince1970 - Double(issuedAt) <= 3600 ? nil : "ExpiredProviderToken"
    }

    private static func object(_ part: Substring) -> [String: Any]? {
        base64URL(part).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    private static func base64URL(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
