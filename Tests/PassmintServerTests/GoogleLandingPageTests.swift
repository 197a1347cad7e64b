import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Passmint
import PassmintGoogle
import PassmintServer
import PassmintTestSupport
import Testing

/// The "add" page offers the wallet of the phone that opens it: Google Wallet on Android, Apple Wallet on an iPhone,
/// both (with a QR code each) on a computer.
@Suite struct GoogleLandingPageTests {
    static let agents = [
        "android": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
        "iphone":
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
        "desktop": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
    ]

    /// The add page as `agent` gets it.
    static func page(_ client: some ServiceClient, _ add: String, agent: String) async throws -> String {
        let response = try await client.execute(
            uri: SharingRoutesTests.local(add), method: .get, headers: [.userAgent: agent])
        #expect(response.status == .ok)
        #expect(response.headers[.vary] == "User-Agent, Accept-Language")
        return String(decoding: response.body.readableBytesView, as: UTF8.self)
    }

    @Test(arguments: StoreKind.allCases)
    func eachPlatformIsOfferedItsWallet(_ kind: StoreKind) async throws {
        try await GoogleServeHarness.withService(kind) { harness, client in
            let (_, add) = try await SharingRoutesTests.issueForLinks(client)
            let android = try await Self.page(client, add, agent: try #require(Self.agents["android"]))
            #expect(android.contains("id=\"add-to-google-wallet\" href=\"\(GoogleSaveLink.base)"))
            #expect(!android.contains("Add to Apple Wallet") && !android.contains("<svg"))
            let iphone = try await Self.page(client, add, agent: try #require(Self.agents["iphone"]))
            #expect(iphone.contains("Add to Apple Wallet") && !iphone.contains("Google Wallet"))
            let desktop = try await Self.page(client, add, agent: try #require(Self.agents["desktop"]))
            #expect(desktop.contains("Add to Apple Wallet") && desktop.contains("Add to Google Wallet"))
            #expect(desktop.contains("id=\"qr\"") && desktop.contains("id=\"qr-google\""))
        }
    }
}
