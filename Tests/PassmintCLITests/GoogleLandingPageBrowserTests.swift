import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// The "add" page of a service that issues for Google Wallet, opened in a real browser (headless Chromium, through
/// Tests/Browser/check_page.py) as each kind of device: an Android phone is offered "Add to Google Wallet" (its save
/// link), an iPhone "Add to Apple Wallet", a computer both, with a QR code each that decodes (zxing-cpp) to its link.
@Suite(.serialized, .offPool, .enabled(if: TestEnvironment.runsChromiumTests)) struct GoogleLandingPageBrowserTests {
    static let issuerID = "3388000000022222222"
    static let agents = [
        "android": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
        "iphone":
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
        "desktop": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
    ]
    static let saveBase = "https://pay.google.com/gp/v/save/"

    @Test func eachDeviceIsOfferedItsWalletInChromium() throws {
        let folder = TestEnvironment.temporaryFolder("google-landing")
        defer { try? FileManager.default.removeItem(at: folder) }
        let account = try TestServiceAccount(folder: folder)
        let standIn = try GoogleWalletStandIn(account: account, issuerID: Self.issuerID)
        defer { standIn.shutdown() }
        let keyFile = try account.writeKeyFile(tokenURI: standIn.tokenURL.absoluteString)
        let chain = try TestEnvironment.devChain()
        let publicURL = "http://127.0.0.1:9/wallet"
        let server = try ServeProcess(
            arguments: [
                "serve", "--public-url", publicURL, "--allow-http", "--database-url", folder.appendingPathComponent("g.sqlite").path,
                "--certificates", chain.path, "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path,
                "--apns-url", "https://127.0.0.1:9", "--google-service-account", keyFile.path, "--google-issuer-id", Self.issuerID,
                "--google-api-url", standIn.url.absoluteString,
            ], folder: folder, environment: ["PASSMINT_LINK_SECRET": LandingPageBrowserTests.secret])
        defer { server.stop() }
        #expect(server.waitUntilHealthy(), "the service did not start: \(server.output)")
        _ = try server.issue(serial: "GLANDING-1")
        let lookup = try ServeCommandTests.curl([
            server.base + "/api/v1/passes/pass.dev.passmint.example/GLANDING-1", "-H", "Authorization: Bearer \(ServeProcess.apiKey)",
        ])
        let answer = try JSONParser.value(Array(lookup.stdout.utf8))
        let add = try #require(answer["links"]?["add"]?.stringValue, "\(lookup.stdout)")
        let download = try #require(answer["links"]?["download"]?.stringValue)
        #expect(answer["googleSaveURL"]?.stringValue?.hasPrefix(Self.saveBase) == true, "\(lookup.stdout)")
        let page = add.replacingOccurrences(of: "http://127.0.0.1:9/", with: server.base + "/")
        let buttons = ["--element", "#add-to-wallet", "--element", "#add-to-google-wallet", "--element", "#qr", "--element", "#qr-google"]
        func open(_ agent: String, _ extra: [String]) throws -> JSONValue {
            let report = try LandingPageBrowserTests.checkPage(page, buttons + ["--user-agent", try #require(Self.agents[agent])] + extra)
            #expect(report["consoleErrors"] == [] && report["exceptions"] == [] && report["failedRequests"] == [], "\(agent): \(report)")
            #expect(report["documentStatuses"] == [200])
            return report
        }
        let phone = ["--mobile", "--width", "390", "--height", "844"]

        let android = try open("android", phone)
        #expect(android["elements"]?["#add-to-google-wallet"]?["visible"] == true)
        #expect(android["elements"]?["#add-to-google-wallet"]?["href"]?.stringValue?.hasPrefix(Self.saveBase) == true)
        #expect(android["elements"]?["#add-to-wallet"] == .null && android["elements"]?["#qr"] == .null)
        #expect(android["text"]?.stringValue?.contains("Add to Apple Wallet") == false)

        let iphone = try open("iphone", phone)
        #expect(iphone["elements"]?["#add-to-wallet"]?["visible"] == true)
        #expect(iphone["elements"]?["#add-to-google-wallet"] == .null)
        #expect(iphone["text"]?.stringValue?.contains("Google Wallet") == false)

        let desktop = try open("desktop", ["--width", "1280", "--height", "1600", "--scale", "2"])
        for element in ["#add-to-wallet", "#add-to-google-wallet", "#qr", "#qr-google"] {
            #expect(desktop["elements"]?[element]?["visible"] == true, "\(element) on a computer")
        }
        let decoded = Set(desktop["barcodes"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? [])
        let googleLink = try #require(desktop["elements"]?["#add-to-google-wallet"]?["href"]?.stringValue)
        #expect(decoded == [download, googleLink], "both QR codes decode to their links")
        #expect(googleLink.hasPrefix(Self.saveBase))
    }
}
