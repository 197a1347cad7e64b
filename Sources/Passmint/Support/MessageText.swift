/// Text from a user's file quoted in a message: cut, so that a megabyte-long header name is not printed whole.
package enum MessageText {
    /// `text` when it has at most `limit` characters; otherwise its first `limit` and how long it is.
    package static func cut(_ text: String, limit: Int = 60) -> String {
        var end = text.startIndex
        guard text.formIndex(&end, offsetBy: limit, limitedBy: text.endIndex), end != text.endIndex else { return text }
        return String(text[..<end]) + "… (\(text.utf8.count) bytes)"
    }
}
