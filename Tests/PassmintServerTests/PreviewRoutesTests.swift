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

/// Preview pages from the service: a stored pass, a template with its sample data or posted data, behind the API key.
@Suite struct PreviewRoutesTests {
    static let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"]

    func withService(_ body: @escaping @Sendable (any ServiceClient) async throws -> Void) async throws {
        try await withStore(.sqlite) { store in
            let core = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: core, logger: .init(label: "preview")).serviceTest(.router) { client in try await body(client)
            }
        }
    }

    static func page(_ response: ServiceResponse) -> String { String(buffer: response.body) }

    /// A preview page says, in its headers, that it runs no script, loads nothing and is not to be sniffed.
    static func expectHardened(_ response: ServiceResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        let policy = response.headers[.contentSecurityPolicy] ?? ""
        #expect(policy.contains("default-src 'none'") && policy.contains("img-src data:"), sourceLocation: sourceLocation)
        #expect(!policy.contains("script-src"), sourceLocation: sourceLocation)
        #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", sourceLocation: sourceLocation)
    }

    @Test func aStoredPassPreviewsBehindTheAPIKey() async throws {
        try await withService { client in
            let serial = unique("PREVIEW")
            let issued = try await client.execute(
                uri: "/api/v1/passes", method: .post, headers: Self.bearer, body: try ServiceHarness.issueBody(serial: serial))
            #expect(issued.status == .created)
            let uri = "/api/v1/passes/\(ServiceHarness.passType)/\(serial)/preview"
            #expect(try await client.execute(uri: uri, method: .get).status == .unauthorized)
            let answer = try await client.execute(uri: uri + "?side=front&watch=false", method: .get, headers: Self.bearer)
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "text/html; charset=utf-8")
            Self.expectHardened(answer)
            let html = Self.page(answer)
            #expect(html.contains("id=\"front\"") && !html.contains("id=\"back\"") && !html.contains("id=\"watch-card\""))
            #expect(html.contains("\(ServiceHarness.passType)/\(serial)"))
            #expect(html.contains("data-format=\"PKBarcodeFormatQR\""))
            let unknown = try await client.execute(
                uri: "/api/v1/passes/\(ServiceHarness.passType)/NOPE-1/preview", method: .get, headers: Self.bearer)
            #expect(unknown.status == .notFound)
            let badSide = try await client.execute(uri: uri + "?side=top", method: .get, headers: Self.bearer)
            #expect(badSide.status == .badRequest)
        }
    }

    @Test func aTemplatePreviewsWithSampleOrPostedData() async throws {
        try await withService { client in
            let sample = try await client.execute(uri: "/api/v1/templates/Festival/preview?lang=fr", method: .get, headers: Self.bearer)
            #expect(sample.status == .ok)
            Self.expectHardened(sample)
            let french = Self.page(sample)
            #expect(french.contains("<html lang=\"fr\">"))
            #expect(french.contains("Festival de la Menthe 2026"))
            #expect(!french.contains(ServiceHarness.templates), "the server's folders stay out of the page")
            var data = try ServiceHarness.loyaltyData(serial: "POSTED-1")
            data["memberName"] = "Grace Hopper"
            let posted = try await client.execute(
                uri: "/api/v1/templates/Loyalty/preview", method: .post, headers: Self.bearer,
                body: ByteBuffer(bytes: JSONWriter.data(.object(data), style: .compact)))
            #expect(posted.status == .ok)
            Self.expectHardened(posted)
            #expect(Self.page(posted).contains("Grace Hopper"))
            let missing = try await client.execute(uri: "/api/v1/templates/Nope/preview", method: .get, headers: Self.bearer)
            #expect(missing.status == .notFound)
            let bad = try await client.execute(uri: "/api/v1/templates/..%2Fx/preview", method: .get, headers: Self.bearer)
            #expect(bad.status == .badRequest || bad.status == .notFound)
            #expect(try await client.execute(uri: "/api/v1/templates/Loyalty/preview", method: .get).status == .unauthorized)
        }
    }
}
