/// What the preview's link scans find in a back field's value, with the work they took: for the fuzz target that
/// checks them against the regular expressions they replace, and for tests that check their cost is linear.
public enum LinkScan {
    /// The web addresses, e-mail addresses and phone numbers a value's data detectors make links (ranges in Unicode
    /// scalars), and how many scalars the scan looked at.
    public static func detected(in value: String) -> (ranges: [Range<Int>], steps: Int) {
        var detector = LinkDetector(Array(value.unicodeScalars))
        let ranges = detector.matches([.web, .email, .phone])
        return (ranges, detector.steps)
    }

    /// The `<a href='…'>…</a>` links of an `attributedValue` (whole link, `href` value, text; ranges in scalars), and
    /// how many scalars the scan looked at.
    public static func anchors(in attributed: String) -> (
        links: [(whole: Range<Int>, href: Range<Int>, text: Range<Int>)], steps: Int
    ) {
        var scanner = AnchorScanner(Array(attributed.unicodeScalars))
        let anchors = scanner.anchors()
        return (anchors.map { ($0.whole, $0.href, $0.text) }, scanner.steps)
    }
}
