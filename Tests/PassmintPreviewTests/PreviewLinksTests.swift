import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintPreview

/// Back fields show links as Wallet does: `attributedValue` anchors, and detected addresses and phone numbers.
@Suite(.computeThreads) struct PreviewLinksTests {
    @Test func addressesAndPhoneNumbersBecomeLinks() {
        let html = PreviewLinks.html(
            "Visit https://mint.example/shops, write to help@mint.example\nor call +49 89 5550 1234.", attributed: nil, detectors: nil)
        #expect(html.contains("<a href=\"https://mint.example/shops\">https://mint.example/shops</a>, write"))
        #expect(html.contains("<a href=\"mailto:help@mint.example\">help@mint.example</a><br>or call"))
        #expect(html.contains("<a href=\"tel:+498955501234\">+49 89 5550 1234</a>."))
    }

    @Test func detectorsChooseWhatIsLinked() {
        let text = "https://mint.example or +49 89 5550 1234"
        #expect(!PreviewLinks.html(text, attributed: nil, detectors: []).contains("<a "))
        let phoneOnly = PreviewLinks.html(text, attributed: nil, detectors: [.phoneNumber])
        #expect(phoneOnly.contains("tel:") && !phoneOnly.contains("href=\"https"))
        #expect(!PreviewLinks.html("Member 4711-0815-2342", attributed: nil, detectors: nil).contains("<a "))
    }

    @Test func attributedValueKeepsItsAnchorsAndNothingElse() {
        let html = PreviewLinks.html(
            "ignored", attributed: "Read <a href='https://mint.example/terms'>our terms</a> <b>now</b> <a href='javascript:alert(1)'>x</a>",
            detectors: nil)
        #expect(html == "Read <a href=\"https://mint.example/terms\">our terms</a> &lt;b&gt;now&lt;/b&gt; x")
    }
}
