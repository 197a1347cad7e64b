package import Foundation
import Passmint

/// Who may open `/dashboard`: a request with the API key (`Authorization: Bearer <key>`), or a browser holding a login
/// link the issuing API made (`POST /api/v1/dashboard/links`): `<expires>.<HMAC-SHA256 under the API key>`, kept as a
/// cookie once followed. Changing the API key ends every login; without one nobody gets in.
package struct DashboardLogin: Sendable {
    let apiKey: String?
    /// How long a login link (and the cookie it sets) lasts.
    package let lifetime: Duration
    let clock: @Sendable () -> Date

    /// The cookie that holds a login.
    package static let cookieName = "passmint_dashboard"

    /// A new login token, and when it expires; nil without an API key.
    package func token() -> (token: String, expires: Date)? {
        guard apiKey != nil else { return nil }
        let expires = Int64(clock().timeIntervalSince1970) + lifetime.components.seconds
        return ("\(expires).\(signature(expires))", Date(timeIntervalSince1970: Double(expires)))
    }

    /// Whether a presented token is one this service made under its current API key and has not expired.
    package func isValid(_ token: String) -> Bool {
        let parts = token.split(separator: ".", maxSplits: 1)
        guard apiKey != nil, parts.count == 2, let expires = Int64(parts[0]), Double(expires) >= clock().timeIntervalSince1970,
            expires <= Int64(clock().timeIntervalSince1970) + lifetime.components.seconds
        else { return false }
        return TokenComparison.matches(String(parts[1]), signature(expires))
    }

    /// Whether a request may see the dashboard: the API key as a bearer token, or a valid login cookie.
    package func allows(authorization: String?, cookies: String?) -> Bool {
        if let apiKey, let authorization, authorization.hasPrefix("Bearer "),
            TokenComparison.matches(String(authorization.dropFirst(7)), apiKey)
        {
            return true
        }
        for cookie in (cookies ?? "").split(separator: ";") {
            let pair = cookie.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == Self.cookieName, isValid(String(pair[1])) { return true }
        }
        return false
    }

    private func signature(_ expires: Int64) -> String {
        Base64URL.encode(Digest.hmacSHA256(key: Array((apiKey ?? "").utf8), message: Array("passmint-dashboard-v1\n\(expires)".utf8)))
    }
}
