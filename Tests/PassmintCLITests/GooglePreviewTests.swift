import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint preview --google`: the Google Wallet card the pass becomes, drawn beside the Apple devices, opened in
/// headless Chromium: its points, logo and barcode (decoded by zxing-cpp from the screenshot) are the pass's.
@Suite(.serialized, .offPool) struct GooglePreviewTests {
    static let templates = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates")

    static func preview(_ page: String, _ extra: [String]) async throws -> TestEnvironment.ProcessResult {
        try await PreviewBrowserTests.preview(
            [
                templates.appendingPathComponent("Loyalty.pass").path, "--data", templates.appendingPathComponent("Loyalty.json").path,
                "--output", page, "--time-zone", "UTC",
            ] + extra)
    }

    @Test func withoutGoogleThePageHasOnlyTheAppleDevices() async throws {
        let page = TestEnvironment.temporaryFolder("google-preview").appendingPathComponent("card.html").path
        let made = try await Self.preview(page, [])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("id=\"google\"") == false)
    }

    @Test(.enabled(if: TestEnvironment.runsChromiumTests)) func theGoogleCardIsDrawnBesideTheAppleOne() async throws {
        let page = TestEnvironment.temporaryFolder("google-preview").appendingPathComponent("card.html").path
        let made = try await Self.preview(page, ["--google"])
        #expect(made.status == 0, "\(made.stderr)")
        let report = try await PreviewBrowserTests.open(
            page,
            [
                "--width", "1400", "--element", "#phone", "--element", "#google", "--element", "#google .glogo", "--element",
                "#google-barcode",
            ])
        for element in ["#google", "#google .glogo", "#google-barcode"] {
            #expect(report["elements"]?[element]?["visible"] == true, "\(element)")
        }
        let phone = report["elements"]?["#phone"]?["x"]?.numberValue?.doubleValue ?? .nan
        let google = report["elements"]?["#google"]?["x"]?.numberValue?.doubleValue ?? .nan
        #expect(google > phone, "the Google card is beside the phone")
        let googleFields = (report["fields"]?.arrayValue ?? []).filter { $0["area"] == "google" }
        #expect(googleFields.contains { $0["key"] == "loyaltyPoints" && $0["value"] == "1,250" }, "\(googleFields)")
        let decoded = PreviewBrowserTests.decoded(report).filter { $0 == "MLC-4711-0815-2342" }
        #expect(decoded.count == 3, "the phone's, the Watch's and the Google card's barcode: \(PreviewBrowserTests.decoded(report))")
    }
}
