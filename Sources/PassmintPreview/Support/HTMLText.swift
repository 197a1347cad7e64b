import Foundation
import Passmint

/// Escaping for text and attribute values written into HTML (the preview's pages, the service's landing page).
public enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` escaped, safe in element content and in quoted attributes.
    public static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }

    /// Escaped text with line breaks kept (`\n` becomes `<br>`), for back fields.
    static func escapeKeepingLines(_ text: String) -> String {
        escape(text).replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "<br>")
    }
}
