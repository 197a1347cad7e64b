import Foundation
import Passmint
import PassmintServer
import Testing

/// The signed public links: only the service's own links for this pass, before their expiry, are valid.
@Suite struct PassLinksTests {
    static let secret = "link-secret-0123456789-0123456789-abcdef"
    let links = PassLinks(secret: Self.secret, publicURL: "https://passes.example.test/wallet", lifetime: .seconds(3600))
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The query items of a link.
    func query(_ link: String) -> [String: String] {
        let items = URLComponents(string: link)?.queryItems ?? []
        return Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.value ?? "") })
    }

    @Test func linksNameThePassAndCarryExpiryAndSignature() {
        let made = links.links(passTypeIdentifier: "pass.a", serialNumber: "S-1", now: now)
        #expect(made.download.hasPrefix("https://passes.example.test/wallet/download/pass.a/S-1?expires=1800003600&signature="))
        #expect(made.add.hasPrefix("https://passes.example.test/wallet/add/pass.a/S-1?expires=1800003600&signature="))
        #expect(query(made.download) == query(made.add))
        #expect(query(made.download)["signature"]?.count == 43, "base64url of 32 bytes")
    }

    @Test func onlyTheLinkMadeForThisPassIsValidUntilItExpires() {
        let made = query(links.links(passTypeIdentifier: "pass.a", serialNumber: "S-1", now: now).download)
        let expires = made["expires"]
        let signature = made["signature"]
        #expect(links.isValid(passTypeIdentifier: "pass.a", serialNumber: "S-1", expires: expires, signature: signature, now: now))
        #expect(!links.isValid(passTypeIdentifier: "pass.a", serialNumber: "S-2", expires: expires, signature: signature, now: now))
        #expect(!links.isValid(passTypeIdentifier: "pass.b", serialNumber: "S-1", expires: expires, signature: signature, now: now))
        #expect(!links.isValid(passTypeIdentifier: "pass.a", serialNumber: "S-1", expires: "1900000000", signature: signature, now: now))
        #expect(!links.isValid(passTypeIdentifier: "pass.a", serialNumber: "S-1", expires: nil, signature: signature, now: now))
        #expect(!links.isValid(passTypeIdentifier: "pass.a", serialNumber: "S-1", expires: expires, signature: nil, now: now))
        #expect(!links.isValid(passTypeIdentifier: "pass.a", serialNumber: "S-1", expires: "1e9", signature: signature, now: now))
        let later = now.addingTimeInterval(3601)
        #expect(!links.isValid(passTypeIdentifier: "pass.a", serialNumber: "S-1", expires: expires, signature: signature, now: later))
        let otherSecret = PassLinks(secret: Self.secret + "x", publicURL: "https://passes.example.test/wallet")
        #expect(!otherSecret.isValid(passTypeIdentifier: "pass.a", serialNumber: "S-1", expires: expires, signature: signature, now: now))
    }

    @Test func linksWithoutALifetimeHaveNoExpiry() {
        let forever = PassLinks(secret: Self.secret, publicURL: "https://x.test")
        let made = query(forever.links(passTypeIdentifier: "pass.a", serialNumber: "S-1").download)
        #expect(made["expires"] == nil)
        #expect(forever.isValid(passTypeIdentifier: "pass.a", serialNumber: "S-1", expires: nil, signature: made["signature"]))
    }

    /// Turning a lifetime on (or shortening it) bounds the links made before: a link without an expiry, or expiring
    /// later than a new link would, is no longer valid (issue 32, item 13).
    @Test func aLifetimeBoundsTheLinksMadeBeforeItWasSet() {
        let forever = PassLinks(secret: Self.secret, publicURL: "https://passes.example.test/wallet")
        let old = query(forever.links(passTypeIdentifier: "pass.a", serialNumber: "S-1", now: now).download)
        #expect(!links.isValid(passTypeIdentifier: "pass.a", serialNumber: "S-1", expires: nil, signature: old["signature"], now: now))
        let long = PassLinks(secret: Self.secret, publicURL: "https://passes.example.test/wallet", lifetime: .seconds(86_400 * 365))
        let year = query(long.links(passTypeIdentifier: "pass.a", serialNumber: "S-1", now: now).download)
        #expect(
            long.isValid(
                passTypeIdentifier: "pass.a", serialNumber: "S-1", expires: year["expires"], signature: year["signature"], now: now))
        #expect(
            !links.isValid(
                passTypeIdentifier: "pass.a", serialNumber: "S-1", expires: year["expires"], signature: year["signature"], now: now),
            "a year-long link under a one-hour lifetime")
    }

    @Test func lifetimesAreReadInSecondsMinutesHoursAndDays() async throws {
        let read = { (text: String) async throws -> Duration? in
            try await ServerConfigurationTests.read(["--public-url", "https://x.test/wallet", "--link-lifetime", text]).linkLifetime
        }
        #expect(try await read("90") == .seconds(90))
        #expect(try await read("15m") == .seconds(900))
        #expect(try await read("12h") == .seconds(43_200))
        #expect(try await read("30d") == .seconds(2_592_000))
        for bad in ["0", "-5d", "d", "3w", "1.5h", "99999999999999999d"] {
            await #expect(throws: ConfigurationError.self) { try await read(bad) }
        }
    }

    @Test func aShortLinkSecretIsRefused() async {
        await #expect(throws: ConfigurationError.self) {
            try await ServerConfigurationTests.read(["--public-url", "https://x.test/wallet"], ["PASSMINT_LINK_SECRET": "short"])
        }
    }
}
