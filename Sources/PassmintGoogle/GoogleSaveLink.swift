public import Foundation
import Passmint

/// "Add to Google Wallet" links: `https://pay.google.com/gp/v/save/<JWT>`, the JWT signed by the service account
/// with `aud: google`, `typ: savetowallet`, the web origins allowed to show the button, and the objects referenced
/// by id only (they are inserted through the API first), so the link stays short.
public struct GoogleSaveLink: Sendable {
    public static let base = "https://pay.google.com/gp/v/save/"
    /// The longest link some browsers open (Google's guidance for save links).
    public static let maximumLength = 1800

    private let key: ServiceAccountKey
    private let now: @Sendable () -> Date

    public init(key: ServiceAccountKey, now: @escaping @Sendable () -> Date = { Date() }) {
        self.key = key
        self.now = now
    }

    /// The link that saves the object `objectID` of `style`. `origins` are the sites that show the button (the
    /// service's public URL).
    public func link(objectID: String, style: GoogleWalletStyle, origins: [String] = []) throws(GoogleWalletError) -> String {
        let claims: JSONValue = [
            "iss": .string(key.clientEmail), "aud": "google", "typ": "savetowallet",
            "iat": .number(JSONNumber(Int(now().timeIntervalSince1970))),
            "origins": .array(origins.map { .string($0) }),
            "payload": .object([style.payloadKey: [["id": .string(objectID)]]]),
        ]
        let link = Self.base + (try JSONWebToken.signed(claims: claims, keyID: key.privateKeyID, signer: key.signer))
        guard link.utf8.count <= Self.maximumLength else {
            throw GoogleWalletError(
                .linkTooLong,
                "the save link for \(objectID) is \(link.utf8.count) characters, over the \(Self.maximumLength) some browsers open: "
                    + "use fewer origins or a shorter object id")
        }
        return link
    }
}
