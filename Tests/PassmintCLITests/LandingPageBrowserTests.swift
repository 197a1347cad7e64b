import Foundation
import Passmint
import PassmintTestSupport
import Testing

/// A member opens the "Add to Apple Wallet" page of their pass in a real browser (headless Chromium, driven over the
/// DevTools protocol by Tests/Browser/check_page.py): the page loads with no console error and no failed request, its
/// QR code decodes (zxing-cpp, on a screenshot) to the download link, and that link gives a pass `passmint verify`
/// accepts.
@Suite(.serialized, .offPool, .enabled(if: TestEnvironment.runsChromiumTests)) struct LandingPageBrowserTests {
    static let secret = "browser-test-link-secret-0123456789abcdef"

    /// Runs check_page.py on `url`: the browser's report.
    static func checkPage(_ url: String, _ extra: [String]) throws -> JSONValue {
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Browser/check_page.py").path
        let result = try TestEnvironment.run("/usr/bin/env", ["python3", script, url] + extra)
        #expect(result.status == 0, "check_page.py failed: \(result.stderr)")
        return try JSONParser.value(Array(result.stdout.utf8))
    }

    @Test func theLandingPageWorksInChromiumAndItsQRCodeLeadsToAPassThatVerifies() throws {
        let folder = TestEnvironment.temporaryFolder("landing")
        let chain = try TestEnvironment.devChain()
        // The public address links are made for; they are followed at the port `serve --port 0` took.
        let publicURL = "http://127.0.0.1:9/wallet"
        let server = try ServeProcess(
            arguments: [
                "serve", "--public-url", publicURL, "--allow-http", "--database-url", folder.appendingPathComponent("links.sqlite").path,
                "--certificates", chain.path, "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path,
                "--apns-url", "https://127.0.0.1:9", "--link-lifetime", "30d",
            ], folder: folder, environment: ["PASSMINT_LINK_SECRET": Self.secret])
        defer { server.stop() }
        #expect(server.waitUntilHealthy(), "the service did not start: \(server.output)")

        var data = try JSONParser.value(
            try FileIO.read(TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.json").path, what: "")
        ).objectValue!
        data["serialNumber"] = "LANDING-1"
        let issued = try ServeCommandTests.curl([
            "-X", "POST", server.base + "/api/v1/passes", "-H", "Authorization: Bearer \(ServeProcess.apiKey)", "-H",
            "Accept: application/json",
            "-d", JSONWriter.string(["template": "Loyalty", "data": .object(data)], style: .compact),
        ])
        let answer = try JSONParser.value(Array(issued.stdout.utf8))
        let add = try #require(answer["links"]?["add"]?.stringValue, "\(issued.stdout)")
        let download = try #require(answer["links"]?["download"]?.stringValue)
        #expect(add.hasPrefix(publicURL + "/add/pass.dev.passmint.example/LANDING-1?expires="))
        func served(_ link: String) -> String { link.replacingOccurrences(of: "http://127.0.0.1:9/", with: server.base + "/") }

        // A desktop browser: the page, the button and the QR code.
        let screenshot = folder.appendingPathComponent("landing.png").path
        let desktop = try Self.checkPage(served(add), ["--screenshot", screenshot, "--element", "#add-to-wallet", "--element", "#qr"])
        #expect(desktop["consoleErrors"] == [], "\(desktop["consoleErrors"] ?? .null)")
        #expect(desktop["exceptions"] == [])
        #expect(desktop["failedRequests"] == [])
        #expect(desktop["documentStatuses"] == [200])
        #expect(desktop["title"]?.stringValue?.contains("Mint Leaf Coffee") == true)
        #expect(desktop["text"]?.stringValue?.contains("Add to Apple Wallet") == true)
        #expect(desktop["elements"]?["#add-to-wallet"]?["visible"] == true)
        #expect(desktop["elements"]?["#qr"]?["visible"] == true)
        let decoded = desktop["barcodes"]?.arrayValue?.compactMap { $0["text"]?.stringValue }
        #expect(decoded == [download], "the QR code in the screenshot is the download link")

        // A phone: the button, and no QR code to scan with itself.
        let phone = try Self.checkPage(
            served(add), ["--mobile", "--width", "390", "--height", "844", "--element", "#add-to-wallet", "--element", "#qr"])
        #expect(phone["elements"]?["#add-to-wallet"]?["visible"] == true)
        #expect(phone["elements"]?["#qr"]?["visible"] == false)

        // Following the decoded link gives a pass that `passmint verify` accepts.
        let pass = folder.appendingPathComponent("downloaded.pkpass").path
        let fetched = try ServeCommandTests.curl([
            "-s", "-o", pass, "-w", "%{http_code} %{content_type}", served(try #require(decoded?.first)),
        ])
        #expect(fetched.stdout == "200 application/vnd.apple.pkpass")
        let verify = try TestEnvironment.run(
            CreateCommandTests.binary, ["verify", pass, "--ca", chain.appendingPathComponent("root.pem").path, "--allow-http"],
            in: TestEnvironment.repositoryRoot)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        // A tampered link gives nothing.
        let tampered = try ServeCommandTests.curl([
            "-s", "-o", "/dev/null", "-w", "%{http_code}", served(download).replacingOccurrences(of: "LANDING-1", with: "LANDING-2"),
        ])
        #expect(tampered.stdout == "404")
    }
}
