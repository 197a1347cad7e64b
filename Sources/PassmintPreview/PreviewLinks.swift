import Foundation
import Passmint

/// A back field's value as Wallet shows it: line breaks kept, the `<a href='…'>…</a>` links of its `attributedValue`,
/// and, as `dataDetectorTypes` asks (all by default), web and e-mail addresses and phone numbers (written with a
/// leading `+`) made links. Every other character is escaped; a link goes only to `http`, `https`, `mailto` or `tel`.
enum PreviewLinks {
    static func html(_ value: String, attributed: String?, detectors: [DataDetectorType]?) -> String {
        if let attributed { return anchors(attributed) }
        let wanted = Set(detectors ?? DataDetectorType.allCases)
        var patterns: [String] = []
        if wanted.contains(.link) {
            patterns += [#"https?://[^\s<>"']+[^\s<>"'.,;:!?)]"#, #"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"#]
        }
        if wanted.contains(.phoneNumber) { patterns.append(#"\+[0-9][0-9 ()-]{5,}[0-9]"#) }
        guard !patterns.isEmpty, let expression = try? NSRegularExpression(pattern: patterns.joined(separator: "|")) else {
            return HTMLText.escapeKeepingLines(value)
        }
        var html = ""
        var cursor = value.startIndex
        for match in expression.matches(in: value, range: NSRange(value.startIndex..., in: value)) {
            guard let range = Range(match.range, in: value) else { continue }
            html += HTMLText.escapeKeepingLines(String(value[cursor..<range.lowerBound]))
            let text = String(value[range])
            html += link(target(for: text), text: text)
            cursor = range.upperBound
        }
        return html + HTMLText.escapeKeepingLines(String(value[cursor...]))
    }

    /// Where detected text leads: the address itself, `mailto:` or `tel:`.
    static func target(for text: String) -> String {
        if text.hasPrefix("http://") || text.hasPrefix("https://") { return text }
        if text.contains("@") { return "mailto:" + text }
        return "tel:" + text.filter { $0 == "+" || $0.isNumber }
    }

    /// The text of an `attributedValue` with its `<a href='…'>` links kept and any other markup shown as text.
    static func anchors(_ attributed: String) -> String {
        let pattern = #"<a\s+href\s*=\s*(?:'([^']*)'|"([^"]*)")\s*>(.*?)</a>"#
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive, .dotMatchesLineSeparators])
        else { return HTMLText.escapeKeepingLines(attributed) }
        var html = ""
        var cursor = attributed.startIndex
        for match in expression.matches(in: attributed, range: NSRange(attributed.startIndex..., in: attributed)) {
            guard let whole = Range(match.range, in: attributed), let text = Range(match.range(at: 3), in: attributed) else { continue }
            let href = [1, 2].compactMap { Range(match.range(at: $0), in: attributed) }.first.map { String(attributed[$0]) } ?? ""
            html += HTMLText.escapeKeepingLines(String(attributed[cursor..<whole.lowerBound]))
            html += link(href, text: String(attributed[text]))
            cursor = whole.upperBound
        }
        return html + HTMLText.escapeKeepingLines(String(attributed[cursor...]))
    }

    /// A link, or the text alone when the target is not a web, mail or phone address.
    static func link(_ href: String, text: String) -> String {
        let scheme = href.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        guard ["http", "https", "mailto", "tel"].contains(scheme) else { return HTMLText.escapeKeepingLines(text) }
        return "<a href=\"\(HTMLText.escape(href))\">\(HTMLText.escapeKeepingLines(text))</a>"
    }
}
