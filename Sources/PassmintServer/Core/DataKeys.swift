import Passmint

/// The keys of the data a caller sends (issuing, PATCH, a bulk update's lines): placeholder names. A key holding a
/// control character or `=` is no name any template uses: it is what a mapping file saved with Windows line ends, or
/// a `--map` pasted whole, makes (`"memberName\r\nPunkte=points"`). Stored, it would change nothing the card shows
/// while the update reported "changed" and pushed, so it is refused, naming the key.
enum DataKeys {
    static func check(_ data: JSONObject) throws(ServiceFailure) {
        for key in data.keys {
            if key.isEmpty { throw ServiceFailure.badRequest("data has an empty key: name the placeholder each value is for") }
            guard let bad = key.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "=" }) else { continue }
            let shown = key.unicodeScalars.map {
                $0.value < 0x20 || $0.value == 0x7F ? "\\u{" + String($0.value, radix: 16) + "}" : String($0)
            }
            .joined()
            let what = bad == "=" ? "an =" : "the control character U+" + String(bad.value, radix: 16, uppercase: true)
            throw ServiceFailure.badRequest(
                "data key \"\(MessageText.cut(shown))\" holds \(what): a key is a placeholder name (memberName, points); "
                    + "check the mapping of columns to placeholders that made it (one Column=placeholder pair per line)")
        }
    }
}
