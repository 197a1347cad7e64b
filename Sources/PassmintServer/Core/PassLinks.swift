package import Foundation
import Passmint

/// Public links that put a pass in a person's hands, for an email or a text message:
/// `<public URL>/download/<passTypeIdentifier>/<serial>?expires=…&signature=…` answers the signed `.pkpass`, and
/// `<public URL>/add/…` (same query) an "Add to Apple Wallet" page, `<public URL>/google/save/…` the pass's "Add to
/// Google Wallet" link. The signature is HMAC-SHA256, under the service's
/// link secret, of the pass type, the serial and the expiry: a link cannot be turned into another pass's, nor made to
/// last longer, without the secret.
package struct PassLinks: Sendable {
    /// Both links of one pass.
    package struct Links: Sendable, Equatable {
        /// Answers the signed `.pkpass`.
        package var download: String
        /// Answers the landing page, whose button and QR code lead to ``download``.
        package var add: String
        /// Sends the pass to Google Wallet when it is opened and leads on to its "Add to Google Wallet" link (a
        /// service that issues for Google Wallet; 404 otherwise).
        package var googleSave: String
    }

    private let secret: [UInt8]
    private let baseURL: String
    /// How long a new link lasts; nil: for ever (until the secret changes).
    package let lifetime: Duration?

    /// - Parameters:
    ///   - secret: the server secret (at least 32 characters; `PASSMINT_LINK_SECRET`). Changing it voids every link.
    ///   - publicURL: the service's public URL, without a trailing slash.
    ///   - lifetime: how long a new link lasts; nil: for ever (until the secret changes).
    package init(secret: String, publicURL: String, lifetime: Duration? = nil) {
        self.secret = Array(secret.utf8)
        baseURL = publicURL
        self.lifetime = lifetime
    }

    /// The links of a pass, expiring ``lifetime`` after `now`.
    package func links(passTypeIdentifier: String, serialNumber: String, now: Date = Date()) -> Links {
        let expires = lifetime.map { String(Int64(now.timeIntervalSince1970) + $0.components.seconds) }
        let path = Self.path(
            passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, expires: expires,
            signature: signature(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, expires: expires))
        return Links(download: baseURL + "/download/" + path, add: baseURL + "/add/" + path, googleSave: baseURL + "/google/save/" + path)
    }

    /// The download link of a presented (valid) link: the same pass, expiry and signature.
    func downloadURL(of link: SharingService.Link) -> String {
        baseURL + "/download/"
            + Self.path(
                passTypeIdentifier: link.passTypeIdentifier, serialNumber: link.serialNumber, expires: link.expires,
                signature: link.signature ?? "")
    }

    /// `<type>/<serial>?expires=…&signature=…`: the part of a link after `/download/` or `/add/`. Path components of
    /// the service (letters, digits, `. _ - : ~`) and base64url need no escaping.
    static func path(passTypeIdentifier: String, serialNumber: String, expires: String?, signature: String) -> String {
        "\(passTypeIdentifier)/\(serialNumber)?" + (expires.map { "expires=\($0)&" } ?? "") + "signature=\(signature)"
    }

    /// Whether a presented link is one this service made for this pass and has not expired. Compares in constant
    /// time; an expiry that is not a whole number of seconds is invalid. With a ``lifetime``, a link without an expiry
    /// (made before the lifetime was set) or expiring later than a new link would (made under a longer lifetime) is
    /// invalid too: the lifetime bounds every link, not only the new ones.
    package func isValid(
        passTypeIdentifier: String, serialNumber: String, expires: String?, signature presented: String?, now: Date = Date()
    ) -> Bool {
        guard let presented else { return false }
        if lifetime != nil, expires == nil { return false }
        if let expires {
            guard let seconds = Int64(expires), Double(seconds) >= now.timeIntervalSince1970 else { return false }
            if let lifetime, seconds > Int64(now.timeIntervalSince1970) + lifetime.components.seconds { return false }
        }
        let expected = signature(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, expires: expires)
        return TokenComparison.matches(presented, expected)
    }

    private func signature(passTypeIdentifier: String, serialNumber: String, expires: String?) -> String {
        let message = "passmint-link-v1\n\(passTypeIdentifier)\n\(serialNumber)\n\(expires ?? "")"
        return Base64URL.encode(Digest.hmacSHA256(key: secret, message: Array(message.utf8)))
    }
}
