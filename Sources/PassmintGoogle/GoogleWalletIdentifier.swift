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
        let cleaned = underscored(suffix, keeping: ".-")
        guard !cleaned.isEmpty else {
            throw GoogleWalletError(.invalidIdentifier, "an empty id suffix for issuer \(issuerID): give a template name or serial number")
        }
        return issuerID + "." + cleaned
    }

    /// `text` with each Unicode scalar but ASCII letters, digits, `_` and those of `extra` (ASCII) replaced by `_`.
    /// Read byte by byte: every object id and field module of a Google round passes through it.
    static func underscored(_ text: String, keeping extra: String) -> String {
        let kept = Array(extra.utf8) + [UInt8(ascii: "_")]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: bytes.append(byte)
            case 0x80...0xBF: continue  // a continuation byte: its scalar is already one `_`
            default: bytes.append(kept.contains(byte) ? byte : UInt8(ascii: "_"))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
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
