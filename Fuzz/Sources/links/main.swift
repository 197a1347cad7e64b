import Foundation
import FuzzDriver
import Passmint
import PassmintPreview

/// The preview's link scans (back fields' data detectors and `attributedValue` anchors): each must find exactly what
/// the regular expressions they replace find, and look at each scalar a bounded number of times (linear time; the
/// regular expressions took 33 s on a 60 KB value). Inputs up to 2 KB are compared with the expressions (which are
/// slow on long inputs); every input has its steps counted.
let detectors = try! NSRegularExpression(
    pattern: #"https?://[^\s<>"']+[^\s<>"'.,;:!?)]|[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}|\+[0-9][0-9 ()-]{5,}[0-9]"#)
let anchors = try! NSRegularExpression(
    pattern: #"<a\s+href\s*=\s*(?:'([^']*)'|"([^"]*)")\s*>(.*?)</a>"#, options: [.caseInsensitive, .dotMatchesLineSeparators])

/// A regular expression's matches (or one group of them) as ranges of Unicode scalars.
func scalarRanges(_ expression: NSRegularExpression, _ text: String, group: (NSTextCheckingResult) -> NSRange) -> [Range<Int>] {
    expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
        let range = group(match)
        guard range.location != NSNotFound, let found = Range(range, in: text) else { return nil }
        let scalars = text.unicodeScalars
        let start = scalars.distance(from: scalars.startIndex, to: found.lowerBound)
        return start..<start + scalars.distance(from: found.lowerBound, to: found.upperBound)
    }
}

runFuzzer { data, size in
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let count = text.unicodeScalars.count
    let detected = LinkScan.detected(in: text)
    precondition(detected.steps <= 24 * (count + 1), "detector: \(detected.steps) steps for \(count) scalars")
    let linked = LinkScan.anchors(in: text)
    precondition(linked.steps <= 8 * (count + 1), "anchors: \(linked.steps) steps for \(count) scalars")
    if size <= 2_048 {
        let expected = scalarRanges(detectors, text) { $0.range }
        precondition(detected.ranges == expected, "detector found \(detected.ranges), the expression \(expected)")
        let wholes = scalarRanges(anchors, text) { $0.range }
        let texts = scalarRanges(anchors, text) { $0.range(at: 3) }
        precondition(linked.links.map(\.whole) == wholes, "anchors found \(linked.links.map(\.whole)), the expression \(wholes)")
        precondition(linked.links.map(\.text) == texts, "anchor texts \(linked.links.map(\.text)), the expression's \(texts)")
    }
    return 0
}
