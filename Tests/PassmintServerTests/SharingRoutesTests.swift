import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Testing

/// The public download link and the "Add to Apple Wallet" page, through the service's router.
@Suite struct SharingRoutesTests {
    static let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"]

    func withService(
        secret: String? = PassLinksTests.secret, _ kind: StoreKind = .sqlite,
        _ body: @escaping @Sendable (any ServiceClient) async throws -> Void
    ) async throws {
        try await withStore(kind) { store in
            var configuration = try ServiceHarness.configuration()
            configuration.linkSecret = secret
            let core = ServiceCore(configuration: configuration, store: store, push: RecordingPushSender(), logger: Logger(label: "t"))
            try await buildApplication(core: core, logger: .init(label: "sharing")).serviceTest(.router) { client in try await body(client)
            }
        }
    }

    /// Issues a Loyalty pass: its serial and the answer's links.
    static func issue(_ client: some ServiceClient) async throws -> (serial: String, download: String, add: String) {
        let serial = unique("LINK")
        let response = try await client.execute(
            uri: "/api/v1/passes", method: .post, headers: bearer, body: try ServiceHarness.issueBody(serial: serial))
        #expect(response.status == .created)
        let json = try JSONParser.value(Array(response.body.readableBytesView))
        let download = try #require(json["links"]?["download"]?.stringValue)
        let add = try #require(json["links"]?["add"]?.stringValue)
        return (serial, download, add)
    }

    /// Issues a Loyalty pass with a JSON answer: its serial and its add page's link.
    static func issueForLinks(_ client: some ServiceClient) async throws -> (serial: String, add: String) {
        let (serial, _, add) = try await issue(client)
        return (serial, add)
    }

    /// The path and query of a public link (the router sees no host).
    static func local(_ link: String) -> String { String(link.dropFirst("https://passes.example.test".count)) }

    @Test(arguments: StoreKind.allCases)
    func theDownloadLinkAnswersTheSignedPass(_ kind: StoreKind) async throws {
        try await withService(kind) { client in
            let (serial, download, _) = try await Self.issue(client)
            #expect(download.hasPrefix(ServiceHarness.publicURL + "/download/\(ServiceHarness.passType)/\(serial)?signature="))
            try await client.execute(uri: Self.local(download), method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/vnd.apple.pkpass")
                #expect(response.headers[.contentDisposition] == "attachment; filename=\"\(serial).pkpass\"")
                let root = try Certificate(contentsOf: TestEnvironment.devChain().appendingPathComponent("root.pem").path)
                let report = PassVerifier(root: root).verify(Array(response.body.readableBytesView), source: "downloaded")
                #expect(report.isValid)
            }
            // The metadata carries the same links.
            try await client.execute(
                uri: "/api/v1/passes/\(ServiceHarness.passType)/\(serial)", method: .get, headers: Self.bearer
            ) { response in
                let json = try JSONParser.value(Array(response.body.readableBytesView))
                #expect(json["links"]?["download"]?.stringValue == download)
            }
        }
    }

    @Test func aWrongLinkAnswersTheSame404AsAnUnknownPass() async throws {
        try await withService { client in
            let (serial, download, add) = try await Self.issue(client)
            let signature = try #require(URLComponents(string: download)?.queryItems?.first { $0.name == "signature" }?.value)
            let type = ServiceHarness.passType
            // The last character of an HMAC-SHA256 in base64url is one of 16; change it to another one.
            let otherLast = signature.last == "A" ? "E" : "A"
            let wrong = [
                "/wallet/download/\(type)/\(serial)?signature=\(signature.dropLast())\(otherLast)",
                "/wallet/download/\(type)/\(serial)",
                "/wallet/download/\(type)/\(serial)-X?signature=\(signature)",
                "/wallet/download/\(type)/\(serial)?expires=9999999999&signature=\(signature)",
                "/wallet/add/\(type)/\(serial)?signature=x",
                "/wallet/download/\(type)/bad%20serial?signature=\(signature)",
            ]
            let unknown = try await client.execute(uri: "/wallet/download/\(type)/NOPE-1?signature=\(signature)", method: .get)
            #expect(unknown.status == .notFound)
            for path in wrong {
                let answer = try await client.execute(uri: path, method: .get)
                #expect(answer.status == .notFound, "\(path)")
                #expect(Array(answer.body.readableBytesView) == Array(unknown.body.readableBytesView), "\(path)")
            }
            #expect(try await client.execute(uri: Self.local(add), method: .get).status == .ok)
        }
    }

    @Test func anExpiredLinkAnswers404() async throws {
        try await withStore(.sqlite) { store in
            var configuration = try ServiceHarness.configuration()
            configuration.linkSecret = PassLinksTests.secret
            let core = ServiceCore(configuration: configuration, store: store, push: RecordingPushSender(), logger: Logger(label: "t"))
            try await buildApplication(core: core, logger: .init(label: "sharing")).serviceTest(.router) { client in
                let (serial, _, _) = try await Self.issue(client)
                let old = PassLinks(secret: PassLinksTests.secret, publicURL: ServiceHarness.publicURL, lifetime: .seconds(60))
                    .links(passTypeIdentifier: ServiceHarness.passType, serialNumber: serial, now: Date().addingTimeInterval(-3600))
                #expect(try await client.execute(uri: Self.local(old.download), method: .get).status == .notFound)
                let fresh = PassLinks(secret: PassLinksTests.secret, publicURL: ServiceHarness.publicURL, lifetime: .seconds(60))
                    .links(passTypeIdentifier: ServiceHarness.passType, serialNumber: serial)
                #expect(try await client.execute(uri: Self.local(fresh.download), method: .get).status == .ok)
            }
        }
    }

    @Test func theLandingPageShowsThePassAButtonAndAQRCodeAndAllowsNoScript() async throws {
        try await withService { client in
            let (serial, download, add) = try await Self.issue(client)
            try await client.execute(uri: Self.local(add), method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
                let html = String(buffer: response.body)
                #expect(html.contains("<h1>Mint Leaf Coffee</h1>"))
                #expect(!html.contains("<script"))
                let relative = "../../download/\(ServiceHarness.passType)/\(serial)?" + (URLComponents(string: download)?.query ?? "")
                #expect(html.contains("href=\"\(relative)\""))
                #expect(html.contains("<svg"))
            }
        }
    }

    @Test func theLandingPageIsInTheLanguageTheRequestAsksFor() async throws {
        try await withService { client in
            let (_, _, add) = try await Self.issue(client)
            let german: HTTPFields = [.acceptLanguage: "fr;q=0.2, de-AT;q=0.9, *;q=0.1"]
            try await client.execute(uri: Self.local(add), method: .get, headers: german) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.vary] == "User-Agent, Accept-Language")
                let html = String(buffer: response.body)
                #expect(html.contains("<html lang=\"de\">"))
                #expect(html.contains(">Zu Apple Wallet hinzufügen</a>"))
                #expect(html.contains("<title>QR-Code des Links zu diesem Pass</title>"))
            }
            try await client.execute(uri: Self.local(add), method: .get, headers: [.acceptLanguage: "ja"]) { response in
                #expect(String(buffer: response.body).contains(">Apple Walletに追加</a>"))
            }
            try await client.execute(uri: Self.local(add), method: .get) { response in
                let html = String(buffer: response.body)
                #expect(html.contains("<html lang=\"en\">") && html.contains(">Add to Apple Wallet</a>"))
            }
        }
    }

    @Test func withoutASecretThereAreNoLinks() async throws {
        try await withService(secret: nil) { client in
            let response = try await client.execute(
                uri: "/api/v1/passes", method: .post, headers: Self.bearer, body: try ServiceHarness.issueBody(serial: unique("NOLINK")))
            #expect(response.status == .created)
            #expect(try JSONParser.value(Array(response.body.readableBytesView))["links"] == nil)
            #expect(try await client.execute(uri: "/wallet/download/x/y?signature=z", method: .get).status == .notFound)
        }
    }
}
