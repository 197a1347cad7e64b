import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// A customer opens the "Add to Apple Wallet" page of their order in headless Chromium (Tests/Browser/check_page.py):
/// the page loads cleanly, its QR code decodes to the order's download link, and that link gives an `.order` served
/// as `application/vnd.apple.finance.order` that `passmint verify` accepts.
@Suite(.serialized, .offPool, .enabled(if: TestEnvironment.runsChromiumTests)) struct OrderLandingPageBrowserTests {
    static let publicURL = "https://orders.example.test/wallet"

    @Test func theOrderLandingPageWorksInChromiumAndItsQRCodeLeadsToAnOrderThatVerifies() throws {
        let folder = TestEnvironment.temporaryFolder("order-landing")
        let certificates = try TestEnvironment.passTypeFolders(uids: ["pass.dev.passmint.example", TestEnvironment.devOrderType])
        let server = try ServeProcess(
            arguments: [
                "serve", "--public-url", Self.publicURL, "--database-url", folder.appendingPathComponent("links.sqlite").path,
                "--certificates", certificates.path, "--templates",
                TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path, "--order-templates",
                TestEnvironment.repositoryRoot.appendingPathComponent("OrderTemplates").path, "--apns-url", "https://127.0.0.1:9",
                "--link-lifetime", "30d",
            ], folder: folder, environment: ["PASSMINT_LINK_SECRET": LandingPageBrowserTests.secret])
        defer { server.stop() }
        #expect(server.waitUntilHealthy(), "the service did not start: \(server.output)")
        // Links name the public address; the test follows them at the port the service took.
        func served(_ link: String) -> String { link.replacingOccurrences(of: Self.publicURL + "/", with: server.base + "/wallet/") }

        var data = try JSONParser.value(
            try FileIO.read(TestEnvironment.repositoryRoot.appendingPathComponent("OrderTemplates/Shipment.json").path, what: "")
        ).objectValue!
        data["orderIdentifier"] = "LANDING-ORDER-1"
        data["authenticationToken"] = nil
        data["updatedAt"] = nil
        let issued = try ServeCommandTests.curl([
            "-X", "POST", server.base + "/api/v1/orders", "-H", "Authorization: Bearer \(ServeProcess.apiKey)", "-H",
            "Accept: application/json", "-d", JSONWriter.string(["template": "Shipment", "data": .object(data)], style: .compact),
        ])
        let answer = try JSONParser.value(Array(issued.stdout.utf8))
        let add = try #require(answer["links"]?["add"]?.stringValue, "\(issued.stdout)")
        let download = try #require(answer["links"]?["download"]?.stringValue)
        #expect(add.hasPrefix(Self.publicURL + "/add/\(TestEnvironment.devOrderType)/LANDING-ORDER-1?expires="), "\(add)")

        let screenshot = folder.appendingPathComponent("order-landing.png").path
        let desktop = try LandingPageBrowserTests.checkPage(
            served(add), ["--screenshot", screenshot, "--element", "#add-to-wallet", "--element", "#qr"])
        #expect(desktop["consoleErrors"] == [], "\(desktop["consoleErrors"] ?? .null)")
        #expect(desktop["exceptions"] == [])
        #expect(desktop["failedRequests"] == [])
        #expect(desktop["documentStatuses"] == [200])
        #expect(desktop["title"]?.stringValue?.contains("Northwind Audio") == true, "\(desktop["title"] ?? .null)")
        let text = desktop["text"]?.stringValue ?? ""
        #expect(
            text.contains("Add to Apple Wallet") && text.contains("Order 004711") && text.contains("add the order to Wallet"), "\(text)")
        #expect(desktop["elements"]?["#add-to-wallet"]?["visible"] == true)
        #expect(desktop["elements"]?["#qr"]?["visible"] == true)
        let decoded = desktop["barcodes"]?.arrayValue?.compactMap { $0["text"]?.stringValue }
        #expect(decoded == [download], "the QR code in the screenshot is the download link")

        let order = folder.appendingPathComponent("downloaded.order").path
        let fetched = try ServeCommandTests.curl([
            "-s", "-o", order, "-w", "%{http_code} %{content_type}", served(try #require(decoded?.first)),
        ])
        #expect(fetched.stdout == "200 application/vnd.apple.finance.order")
        let verify = try TestEnvironment.run(
            CreateCommandTests.binary, ["verify", order, "--ca", certificates.appendingPathComponent("root.pem").path],
            in: TestEnvironment.repositoryRoot)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(
            try TestEnvironment.independentlyCheckOrder(URL(fileURLWithPath: order), root: certificates.appendingPathComponent("root.pem"))
                .status == 0)

        // Another order's identifier under this link's signature, or a link past its expiry, gives nothing.
        for forged in [
            served(download).replacingOccurrences(of: "LANDING-ORDER-1", with: "LANDING-ORDER-2"),
            served(add).replacingOccurrences(of: "expires=", with: "expires=1"),
        ] {
            #expect(try ServeCommandTests.curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", forged]).stdout == "404", "\(forged)")
        }
    }
}
