/// Finds the `<a href='…'>…</a>` links of an `attributedValue` in time linear in its length, as the pattern
/// `<a\s+href\s*=\s*(?:'([^']*)'|"([^"]*)")\s*>(.*?)</a>` (case-insensitive, `.` matching line breaks) would, leftmost
/// first: where the next quote and the next `</a>` are is measured once, from the right, so an opening tag never
/// scans past its own end. ``steps`` counts the scalars looked at (for tests).
struct AnchorScanner {
    struct Anchor {
        /// The whole `<a …>…</a>`, its `href` value and its text, in scalars.
        var whole: Range<Int>
        var href: Range<Int>
        var text: Range<Int>
    }

    private let text: [Unicode.Scalar]
    private var nextSingle: [Int]
    private var nextDouble: [Int]
    private var nextClose: [Int]
    private(set) var steps = 0

    init(_ text: [Unicode.Scalar]) {
        self.text = text
        let count = text.count
        nextSingle = Array(repeating: count, count: count + 1)
        nextDouble = nextSingle
        nextClose = nextSingle
        for index in stride(from: count - 1, through: 0, by: -1) {
            steps += 1
            nextSingle[index] = text[index] == "'" ? index : nextSingle[index + 1]
            nextDouble[index] = text[index] == "\"" ? index : nextDouble[index + 1]
            nextClose[index] = Self.matches("</a>", text, at: index) ? index : nextClose[index + 1]
        }
    }

    mutating func anchors() -> [Anchor] {
        var found: [Anchor] = []
        var index = 0
        while index < text.count {
            steps += 1
            if let anchor = anchor(at: index) {
                found.append(anchor)
                index = anchor.whole.upperBound
            } else {
                index += 1
            }
        }
        return found
    }

    private mutating func anchor(at start: Int) -> Anchor? {
        guard Self.matches("<a", text, at: start) else { return nil }
        var index = start + 2
        let spaces = skipSpaces(from: index)
        guard spaces > index, Self.matches("href", text, at: spaces) else { return nil }
        index = skipSpaces(from: spaces + 4)
        guard index < text.count, text[index] == "=" else { return nil }
        index = skipSpaces(from: index + 1)
        guard index < text.count, text[index] == "'" || text[index] == "\"" else { return nil }
        let closing = text[index] == "'" ? nextSingle[index + 1] : nextDouble[index + 1]
        guard closing < text.count else { return nil }
        let href = index + 1..<closing
        index = skipSpaces(from: closing + 1)
        guard index < text.count, text[index] == ">" else { return nil }
        let close = nextClose[index + 1]
        guard close < text.count else { return nil }
        return Anchor(whole: start..<close + 4, href: href, text: index + 1..<close)
    }

    private mutating func skipSpaces(from start: Int) -> Int {
        var index = start
        while index < text.count, text[index].properties.isWhitespace {
            steps += 1
            index += 1
        }
        return index
    }

    /// Whether `word` (lowercase ASCII) is at `index`, in any case.
    private static func matches(_ word: String, _ text: [Unicode.Scalar], at index: Int) -> Bool {
        var position = index
        for expected in word.unicodeScalars {
            guard position < text.count else { return false }
            let scalar = text[position]
            let lowered = ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
            guard lowered == expected else { return false }
            position += 1
        }
        return true
    }
}
