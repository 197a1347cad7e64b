public import Foundation
public import Passmint
import Synchronization

/// Token-based APNs authentication: a JSON Web Token signed with ES256 by an APNs auth key (`AuthKey_<KEYID>.p8`
/// from developer.apple.com → Keys), sent as `authorization: bearer <token>` instead of a TLS client certificate.
///
/// Apple documents certificate authentication for pass updates; tokens are reported to work when the key belongs
/// to the team of the pass type ID (see the Passmint article “The update web service protocol”). APNs accepts a
/// token for an hour and refuses one renewed more often than every 20 minutes, so one token is kept for 50 minutes
/// (or until APNs answers `ExpiredProviderToken`).
public final class APNsProviderToken: Sendable {
    /// The key's 10-character identifier (the `kid` header).
    public let keyIdentifier: String
    /// The team the key belongs to (the `iss` claim).
    public let teamIdentifier: String
    private let signer: ES256Signer
    private let current = Mutex<(token: String, issuedAt: Date)?>(nil)

    /// How long one token is used.
    public static let lifetime: TimeInterval = 50 * 60

    public init(signer: ES256Signer, keyIdentifier: String, teamIdentifier: String) throws(PassmintError) {
        for (name, value) in [("key identifier", keyIdentifier), ("team identifier", teamIdentifier)] {
            guard !value.isEmpty, value.count <= 64, value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw PassmintError(
                    .invalidIdentity, "the APNs \(name) '\(value)' must be letters and digits (Apple's are 10 characters, e.g. ABC123DEFG)")
            }
        }
        self.signer = signer
        self.keyIdentifier = keyIdentifier
        self.teamIdentifier = teamIdentifier
    }

    /// Reads an APNs auth key. The key identifier defaults to the one in Apple's file name `AuthKey_<KEYID>.p8`.
    public convenience init(p8Path: String, keyIdentifier: String?, teamIdentifier: String) throws(PassmintError) {
        let file = URL(fileURLWithPath: p8Path).deletingPathExtension().lastPathComponent
        let fromName = file.hasPrefix("AuthKey_") ? String(file.dropFirst("AuthKey_".count)) : nil
        guard let keyIdentifier = keyIdentifier ?? fromName else {
            throw PassmintError(
                .invalidIdentity, "give the APNs key identifier of \(p8Path) (--apns-key-id), or keep Apple's file name AuthKey_<KEYID>.p8")
        }
        try self.init(signer: try ES256Signer(p8Path: p8Path), keyIdentifier: keyIdentifier, teamIdentifier: teamIdentifier)
    }

    /// The token to send now: the kept one while it is younger than ``lifetime``, else a new one.
    public func token(now: Date = Date()) throws(PassmintError) -> String {
        if let kept = current.withLock({ $0 }), now.timeIntervalSince(kept.issuedAt) < Self.lifetime, now >= kept.issuedAt {
            return kept.token
        }
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let token = try makeToken(issuedAt: issuedAt)
        current.withLock { $0 = (token, issuedAt) }
        return token
    }

    /// Drops the kept token (APNs said it expired), so the next push signs a new one.
    public func renew() { current.withLock { $0 = nil } }

    /// `base64url({"alg":"ES256","kid":…}) . base64url({"iss":…,"iat":…}) . base64url(r || s)`.
    func makeToken(issuedAt: Date) throws(PassmintError) -> String {
        let header: JSONValue = ["alg": "ES256", "kid": .string(keyIdentifier)]
        let claims: JSONValue = ["iss": .string(teamIdentifier), "iat": .number(JSONNumber(Int(issuedAt.timeIntervalSince1970)))]
        let signingInput =
            Base64URL.encode(JSONWriter.data(header, style: .compact)) + "." + Base64URL.encode(JSONWriter.data(claims, style: .compact))
        return signingInput + "." + Base64URL.encode(try signer.sign(Array(signingInput.utf8)))
    }
}
