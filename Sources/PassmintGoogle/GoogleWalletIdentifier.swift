/// Ids of classes and objects as Google requires them: `{issuerId}.{suffix}`, where the issuer id is the number
/// Google's Pay & Wallet console shows and the suffix holds only letters, digits, `.`, `_` and `-`.
public enum GoogleWalletIdentifier {
    /// Checks an issuer id (digits only).
    public static func checkIssuer(_ issuerID: String) throws(GoogleWalletError) {
        guard !issuerID.isEmpty, issuerID.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw GoogleWalletError(
                .invalidIdentifier,
                "issuer id \"\(issuerID)\" is not a number: copy it from Google Pay & Wallet console → Google Wallet API (e.g. 3388000000012345678)"
            )
        }
    }

    /// `{issuerId}.{suffix}` with every character Google does not allow in the suffix replaced by `_`
    /// (`pass.com.example/ticket 7` → `pass.com.example_ticket_7`).
    public static func make(issuerID: String, suffix: String) throws(GoogleWalletError) -> String {
        try checkIssuer(issuerID)
        let cleaned = String(
            String.UnicodeScalarView(
                suffix.unicodeScalars.map { scalar in
                    let allowed =
                        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
                        || scalar == "." || scalar == "_" || scalar == "-"
                    return allowed ? scalar : "_"
                }))
        guard !cleaned.isEmpty else {
            throw GoogleWalletError(.invalidIdentifier, "an empty id suffix for issuer \(issuerID): give a template name or serial number")
        }
        return issuerID + "." + cleaned
    }

    /// The id of a pass's Google object: `{issuerId}.{passTypeIdentifier}.{serialNumber}`, the one rule `serve`,
    /// `batch --google` and `google link` all follow, so that a card linked by one is updated by the others.
    public static func objectID(issuerID: String, passTypeIdentifier: String, serialNumber: String) throws(GoogleWalletError) -> String {
        try make(issuerID: issuerID, suffix: "\(passTypeIdentifier).\(serialNumber)")
    }

    /// Whether `id` is a well-formed id of `issuerID`.
    public static func isValid(_ id: String, issuerID: String) -> Bool {
        guard id.hasPrefix(issuerID + "."), id.count > issuerID.count + 1 else { return false }
        return (try? make(issuerID: issuerID, suffix: String(id.dropFirst(issuerID.count + 1)))) == id
    }
}
