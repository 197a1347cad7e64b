import Foundation
import Passmint

/// A back field's value as Wallet shows it: line breaks kept, the `<a href='…'>…</a>` links of its `attributedValue`,
/// and, as `dataDetectorTypes` asks (all by default), web and e-mail addresses and phone numbers (written with a
/// leading `+`) made links. Every other character is escaped; a link goes only to `http`, `https`, `mailto` or `tel`.
/// Both scans take time linear in the value's length (``LinkDetector``, ``AnchorScanner``).
enum PreviewLinks {
    static func html(_ value: String, attributed: String?, detectors: [DataDetectorType]?) -> String {
        if let attributed { return anchors(attributed) }
        let wanted = Set(detectors ?? DataDetectorType.allCases)
        var kinds: LinkDetector.Kinds = []
        if wanted.contains(.link) { kinds.formUnion([.web, .email]) }
        if wanted.contains(.phoneNumber) { kinds.insert(.phone) }
        guard !kinds.isEmpty else { return HTMLText.escapeKeepingLines(value) }
        let scalars = Array(value.unicodeScalars)
        var detector = LinkDetector(scalars)
        var html = ""
        var cursor = 0
        for range in detector.matches(kinds) {
            html += HTMLText.escapeKeepingLines(text(scalars[cursor..<range.lowerBound]))
            let found = text(scalars[range])
            html += link(target(for: found), text: found)
            cursor = range.upperBound
        }
        return html + HTMLText.escapeKeepingLines(text(scalars[cursor...]))
    }

    static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// Where detected text leads: the address itself, `mailto:` or `tel:`.
    static func target(for text: String) -> String {
        if text.hasPrefix("http://") || text.hasPrefix("https://") { return text }
        if text.contains("@") { return "mailto:" + text }
        return "tel:" + text.filter { $0 == "+" || $0.isNumber }
    }

    /// The text of an `attributedValue` with its `<a href='…'>` links kept and any other markup shown as text.
    static func anchors(_ attributed: String) -> String {
        let scalars = Array(attributed.unicodeScalars)
        var scanner = AnchorScanner(scalars)
        var html = ""
        var cursor = 0
        for anchor in scanner.anchors() {
            html += HTMLText.escapeKeepingLines(text(scalars[cursor..<anchor.whole.lowerBound]))
            html += link(text(scalars[anchor.href]), text: text(scalars[anchor.text]))
            cursor = anchor.whole.upperBound
        }
        return html + HTMLText.escapeKeepingLines(text(scalars[cursor...]))
    }

    /// A link, or the text alone when the target is not a web, mail or phone address.
    static func link(_ href: String, text: String) -> String {
        let scheme = href.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        guard ["http", "https", "mailto", "tel"].contains(scheme) else { return HTMLText.escapeKeepingLines(text) }
        return "<a href=\"\(HTMLText.escape(href))\">\(HTMLText.escapeKeepingLines(text))</a>"
    }
}
