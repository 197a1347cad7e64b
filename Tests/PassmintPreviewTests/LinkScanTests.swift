import Foundation
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintPreview

/// The preview's link scans take time linear in a back field's length (issue 32, item 3: a 60 KB value took 33 s, a
/// 200 KB one never finished): their steps are counted, and they find what the regular expressions they replace did.
@Suite(.computeThreads) struct LinkScanTests {
    /// Values that made the regular expressions backtrack: long runs each pattern starts in but never completes.
    static let hostile: [String: String] = [
        "letters": String(repeating: "a", count: 200_000),
        "local parts and at signs": String(repeating: "a.b@", count: 50_000),
        "domains without a top level": "x@" + String(repeating: "a.1", count: 66_000),
        "phone digits without an end": "+1" + String(repeating: " (", count: 100_000),
        "web addresses of punctuation": String(repeating: "http://.", count: 25_000),
        "anchors never closed": String(repeating: "<a href='x'>", count: 16_000),
        "quotes never closed": String(repeating: "<a href='", count: 22_000),
    ]

    @Test(arguments: hostile.keys.sorted())
    func aLongValueTakesLinearSteps(_ name: String) {
        let value = Self.hostile[name]!
        let count = value.unicodeScalars.count
        #expect(count >= 190_000)
        let detected = LinkScan.detected(in: value)
        #expect(detected.steps <= 20 * count, "\(name): the detector took \(detected.steps) steps for \(count) scalars")
        let anchors = LinkScan.anchors(in: value)
        #expect(anchors.steps <= 8 * count, "\(name): the anchor scan took \(anchors.steps) steps for \(count) scalars")
    }

    @Test func aTwoHundredKilobyteBackFieldPreviewsWithItsLinks() {
        let value = String(repeating: "lorem ipsum dolor sit amet ", count: 7_500) + "mail help@mint.example"
        #expect(value.utf8.count > 200_000)
        let html = PreviewLinks.html(value, attributed: nil, detectors: nil)
        #expect(html.hasSuffix("mail <a href=\"mailto:help@mint.example\">help@mint.example</a>"))
        #expect(LinkScan.detected(in: value).steps <= 20 * value.unicodeScalars.count)
    }

    /// Small values, each compared with the regular expressions the scans replace, in linear steps too.
    @Test func theScansFindWhatTheExpressionsFoundInLinearSteps() throws {
        let detectors = try NSRegularExpression(
            pattern: #"https?://[^\s<>"']+[^\s<>"'.,;:!?)]|[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}|\+[0-9][0-9 ()-]{5,}[0-9]"#)
        let anchors = try NSRegularExpression(
            pattern: #"<a\s+href\s*=\s*(?:'([^']*)'|"([^"]*)")\s*>(.*?)</a>"#, options: [.caseInsensitive, .dotMatchesLineSeparators])
        let samples = [
            "Visit https://mint.example/shops, write to help@mint.example\nor call +49 89 5550 1234.",
            "http://a.b) https://x. http://y.z?q=1! a@b.c a@b.co a@b.com9 a.b@c-d.e.fr. +1234567 +123456 +1 (23) 456-7",
            "ab+12345678@x.de +4 9 8 9 5 5 5 0 x@y..zz .@a.bc http://é.example/ü «https://a.b» 'http://q.r'",
            "Read <a href='https://mint.example/terms'>our terms</a> <b>now</b> <A\nHREF = \"tel:+1\" >call</A> <a href='x'>open",
            "<a href='a'><a href='b'>two</a></a> <ahref='c'>no</a> <a  href=\"d'>mixed</a>\">ok</a>",
        ]
        for sample in samples {
            let detected = LinkScan.detected(in: sample)
            #expect(detected.ranges == Self.ranges(detectors, sample, group: 0), "\(sample)")
            #expect(detected.steps <= 20 * sample.unicodeScalars.count)
            let scanned = LinkScan.anchors(in: sample)
            #expect(scanned.steps <= 8 * sample.unicodeScalars.count)
            let found = scanned.links
            #expect(found.map(\.whole) == Self.ranges(anchors, sample, group: 0), "\(sample)")
            #expect(found.map(\.text) == Self.ranges(anchors, sample, group: 3), "\(sample)")
        }
    }

    static func ranges(_ expression: NSRegularExpression, _ text: String, group: Int) -> [Range<Int>] {
        expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let found = Range(match.range(at: group), in: text) else { return nil }
            let scalars = text.unicodeScalars
            let start = scalars.distance(from: scalars.startIndex, to: found.lowerBound)
            return start..<start + scalars.distance(from: found.lowerBound, to: found.upperBound)
        }
    }
}
