import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
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

    /// The public address links are made for; they are followed at the port `serve --port 0` took (``served(_:by:)``).
    static let publicURL = "http://127.0.0.1:9/wallet"

    /// A public link as `server` answers it.
    static func served(_ link: String, by server: ServeProcess) -> String {
        link.replacingOccurrences(of: "http://127.0.0.1:9/", with: server.base + "/")
    }

    /// `passmint serve` issuing from PassTemplates/ with links made for ``publicURL``.
    static func startServer(_ folder: URL, chain: URL) throws -> ServeProcess {
        let server = try ServeProcess(
            arguments: [
                "serve", "--public-url", publicURL, "--allow-http", "--database-url", folder.appendingPathComponent("links.sqlite").path,
                "--certificates", chain.path, "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path,
                "--apns-url", "https://127.0.0.1:9", "--link-lifetime", "30d",
            ], folder: folder, environment: ["PASSMINT_LINK_SECRET": Self.secret])
        #expect(server.waitUntilHealthy(), "the service did not start: \(server.output)")
        return server
    }

    /// Issues a pass of `template` (its sample data, with `serial`): the answer's links.
    static func issue(_ server: ServeProcess, template: String, serial: String) throws -> (add: String, download: String) {
        var data = try JSONParser.value(
            try FileIO.read(TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/\(template).json").path, what: "")
        ).objectValue!
        data["serialNumber"] = .string(serial)
        let issued = try ServeCommandTests.curl([
            "-X", "POST", server.base + "/api/v1/passes", "-H", "Authorization: Bearer \(ServeProcess.apiKey)", "-H",
            "Accept: application/json",
            "-d", JSONWriter.string(["template": .string(template), "data": .object(data)], style: .compact),
        ])
        let answer = try JSONParser.value(Array(issued.stdout.utf8))
        let add = try #require(answer["links"]?["add"]?.stringValue, "\(issued.stdout)")
        return (add, try #require(answer["links"]?["download"]?.stringValue))
    }

    @Test func theLandingPageWorksInChromiumAndItsQRCodeLeadsToAPassThatVerifies() throws {
        let folder = TestEnvironment.temporaryFolder("landing")
        let chain = try TestEnvironment.devChain()
        let server = try Self.startServer(folder, chain: chain)
        defer { server.stop() }
        let (add, download) = try Self.issue(server, template: "Loyalty", serial: "LANDING-1")
        #expect(add.hasPrefix(Self.publicURL + "/add/pass.dev.passmint.example/LANDING-1?expires="))
        func served(_ link: String) -> String { Self.served(link, by: server) }

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

    /// The page speaks its reader's language: among the pass's own `.lproj` languages (Festival: en, fr, zh-Hans) the
    /// one `Accept-Language` prefers, its words and the pass's texts in it; a pass without `.lproj` (Loyalty) gets
    /// the page's own words in that language; a language the pass lacks gets the pass's English.
    @Test func theLandingPageSpeaksTheLanguageTheBrowserAsksFor() throws {
        let server = try Self.startServer(TestEnvironment.temporaryFolder("landing-languages"), chain: try TestEnvironment.devChain())
        defer { server.stop() }
        func served(_ link: String) -> String { Self.served(link, by: server) }
        let loyalty = try Self.issue(server, template: "Loyalty", serial: "LANG-1").add
        let festival = try Self.issue(server, template: "Festival", serial: "LANG-2").add

        let german = try Self.checkPage(served(loyalty), ["--accept-language", "de-DE,de;q=0.9", "--element", "#add-to-wallet"])
        #expect(german["consoleErrors"] == [] && german["failedRequests"] == [], "\(german)")
        #expect(german["lang"] == "de")
        let text = german["text"]?.stringValue ?? ""
        #expect(text.contains("Zu Apple Wallet hinzufügen"), "\(text)")
        #expect(text.contains("Am Computer?") && text.contains("um den Pass zu Wallet hinzuzufügen"), "\(text)")
        #expect(!text.contains("Add to Apple Wallet"))
        #expect(german["elements"]?["#add-to-wallet"]?["visible"] == true)

        // German first, then French: the Festival pass has no German, so French, with the pass's French texts.
        let french = try Self.checkPage(served(festival), ["--accept-language", "de-DE,de;q=0.9,fr;q=0.8,en;q=0.5"])
        #expect(french["lang"] == "fr")
        #expect(french["text"]?.stringValue?.contains("Ajouter à Apple Wallet") == true, "\(french["text"] ?? .null)")
        #expect(french["text"]?.stringValue?.contains("Festival de la Menthe 2026") == true)
        #expect(french["title"]?.stringValue?.contains("Festival de la Menthe 2026") == true)

        // Only German: the pass's English.
        let fallback = try Self.checkPage(served(festival), ["--accept-language", "de-DE,de;q=0.9"])
        #expect(fallback["lang"] == "en")
        #expect(fallback["text"]?.stringValue?.contains("Add to Apple Wallet") == true)
        #expect(fallback["text"]?.stringValue?.contains("Mint Festival 2026") == true)

        // The answer says it varies by language, so a cache keeps one page per language.
        let headers = try ServeCommandTests.curl(["-s", "-D", "-", "-o", "/dev/null", "-H", "Accept-Language: de", served(loyalty)])
        #expect(headers.stdout.lowercased().contains("vary: user-agent, accept-language"), "\(headers.stdout)")
    }
}
