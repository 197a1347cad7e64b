public import Foundation
import Passmint
import PassmintHTTP

/// OAuth 2.0 access tokens for a service account (RFC 7523 JWT bearer grant): an RS256 assertion with the Wallet
/// scope is exchanged at the key file's token endpoint, and the token is kept until a minute before it expires.
/// Callers waiting at the same time share one exchange.
public actor GoogleAccessTokens {
    public static let walletScope = "https://www.googleapis.com/auth/wallet_object.issuer"

    private let key: ServiceAccountKey
    private let http: GoogleHTTP
    private let now: @Sendable () -> Date
    /// How long before its expiry a token is replaced.
    private let margin: TimeInterval
    private var current: (token: String, expires: Date)?
    private var pending: Task<(String, Date), any Error>?

    public init(key: ServiceAccountKey, http: GoogleHTTP, margin: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() }) {
        self.key = key
        self.http = http
        self.margin = margin
        self.now = now
    }

    /// A token valid for at least `margin` more seconds.
    public func token() async throws(GoogleWalletError) -> String {
        if let current, current.expires.timeIntervalSince(now()) > margin { return current.token }
        let task: Task<(String, Date), any Error>
        if let pending {
            task = pending
        } else {
            task = Task { try await self.exchange() }
            pending = task
        }
        do {
            let (token, expires) = try await task.value
            pending = nil
            current = (token, expires)
            return token
        } catch {
            pending = nil
            throw error as? GoogleWalletError ?? GoogleWalletError(.authenticationFailed, "\(error)")
        }
    }

    /// Forgets the token (Google answered 401 with it).
    public func invalidate() { current = nil }

    private func exchange() async throws(GoogleWalletError) -> (String, Date) {
        let issued = now()
        let seconds = Int(issued.timeIntervalSince1970)
        let claims: JSONValue = [
            "iss": .string(key.clientEmail), "scope": .string(Self.walletScope), "aud": .string(key.tokenURI.absoluteString),
            "iat": .number(JSONNumber(seconds)), "exp": .number(JSONNumber(seconds + 3600)),
        ]
        let assertion = try JSONWebToken.signed(claims: claims, keyID: key.privateKeyID, signer: key.signer)
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
        let response = try await http.send(
            "POST", key.tokenURI.absoluteString, headers: [("content-type", "application/x-www-form-urlencoded")], body: Array(form.utf8))
        let body = try? JSONParser.value(response.body)
        guard response.status == 200, let token = body?["access_token"]?.stringValue,
            let lifetime = body?["expires_in"]?.numberValue?.intValue
        else {
            let reason = body?["error_description"]?.stringValue ?? body?["error"]?.stringValue ?? "HTTP \(response.status)"
            if GoogleRetry.retries(response.status) {
                throw GoogleWalletError(
                    .unavailable,
                    "Google's token endpoint \(key.tokenURI.absoluteString) is busy (HTTP \(response.status)): try again later",
                    status: response.status)
            }
            throw GoogleWalletError(
                .authenticationFailed,
                "Google's token endpoint \(key.tokenURI.absoluteString) refused the service account \(key.clientEmail): \(reason). "
                    + "Check that the key file is current (not deleted in Google Cloud console) and the machine's clock is right.",
                status: response.status)
        }
        return (token, issued.addingTimeInterval(TimeInterval(lifetime)))
    }
}
