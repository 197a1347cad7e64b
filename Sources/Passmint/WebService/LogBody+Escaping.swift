extension LogBody {
    /// A device's log message as the service's log shows it, at most `maximumBytes` bytes of UTF-8: control
    /// characters (C0, DEL, C1), line and paragraph separators (U+2028, U+2029) and bidirectional controls (U+200E,
    /// U+200F, U+202A–U+202E, U+2066–U+2069) written as escapes (a line break as `\n`, ESC as `\u{1B}`, RIGHT-TO-LEFT OVERRIDE as
    /// `\u{202E}`), cut after the last whole scalar (or escape) that fits. Cost: linear in what is kept.
    package static func escaped(_ message: String, maximumBytes: Int = .max) -> String {
        var output = ""
        var bytes = 0
        for scalar in message.unicodeScalars {
            let piece: String
            switch scalar {
            case "\n": piece = "\\n"
            case "\r": piece = "\\r"
            case "\t": piece = "\\t"
            case _ where isEscaped(scalar): piece = "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                let length = UTF8.width(scalar)
                guard bytes + length <= maximumBytes else { return output }
                output.unicodeScalars.append(scalar)
                bytes += length
                continue
            }
            guard bytes + piece.utf8.count <= maximumBytes else { return output }
            output += piece
            bytes += piece.utf8.count
        }
        return output
    }

    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F: true  // C0, DEL, C1
        case 0x2028, 0x2029: true  // line and paragraph separators
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional marks, embeddings, overrides, isolates
        default: false
        }
    }
}
