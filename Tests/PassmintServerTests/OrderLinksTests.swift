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

/// An order's public links, through the service's router: the download link answers the signed order of its current
/// version, the add link its "Add to Apple Wallet" page, and a link that is altered, or made for another order or for a
/// pass, answers a bare 404.
@Suite struct OrderLinksTests {
    static let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"]

    static func json(_ response: ServiceResponse) throws -> JSONValue { try JSONParser.value(Array(response.body.readableBytesView)) }

    /// The path and query of a public link (the router sees no host).
    static func local(_ link: String) -> String { String(link.dropFirst("https://passes.example.test".count)) }

    @Test(arguments: StoreKind.allCases)
    func theLinksAnswerTheSignedOrderAndItsPageAndNothingElse(_ kind: StoreKind) async throws {
        let clock = try OrderHarness.clock()
        try await withStore(kind, clock: clock) { store in
            let service = try OrderHarness.service(
                store: store, push: RecordingPushSender(), clock: clock, linkSecret: PassLinksTests.secret)
            try await buildApplication(core: service, logger: .init(label: "order-links")).serviceTest(.router) { client in
                let type = OrderHarness.type
                let id = unique("NW")
                let issued = try await client.execute(
                    uri: "/api/v1/orders", method: .post, headers: Self.bearer, body: try OrderHarness.issueBody(id: id))
                #expect(issued.status == .created, "\(String(buffer: issued.body))")
                let download = try #require(try Self.json(issued)["links"]?["download"]?.stringValue, "\(String(buffer: issued.body))")
                let add = try #require(try Self.json(issued)["links"]?["add"]?.stringValue)
                #expect(download.hasPrefix(ServiceHarness.publicURL + "/download/\(type)/\(id)?signature="), "\(download)")
                #expect(add.hasPrefix(ServiceHarness.publicURL + "/add/\(type)/\(id)?signature="), "\(add)")

                // A change, then the download link gives the new version, signed, as Wallet takes it.
                let patched = try await client.execute(
                    uri: "/api/v1/orders/\(type)/\(id)", method: .patch, headers: Self.bearer,
                    body: ByteBuffer(string: #"{"data":{"shippingStatus":"outForDelivery"}}"#))
                #expect(patched.status == .ok)
                #expect(try Self.json(patched)["links"]?["download"]?.stringValue == download, "a link stays the order's")
                let fetched = try await client.execute(uri: Self.local(download), method: .get)
                #expect(fetched.status == .ok)
                #expect(fetched.headers[.contentType] == "application/vnd.apple.finance.order")
                #expect(fetched.headers[.contentDisposition] == "attachment; filename=\"\(id).order\"")
                let bytes = Array(fetched.body.readableBytesView)
                let report = OrderVerifier(root: try OrderHarness.root(), team: "DEVTEAM123").verify(bytes, source: "downloaded")
                #expect(report.isValid, "\(report.checks.filter { $0.status == .failed })")
                #expect(try OrderHarness.orderJSON(bytes)["fulfillments"]?.arrayValue?.first?["status"] == "outForDelivery")

                let page = try await client.execute(uri: Self.local(add), method: .get)
                #expect(page.status == .ok)
                let html = String(buffer: page.body)
                #expect(
                    html.contains("Add to Apple Wallet") && html.contains("Northwind Audio") && html.contains("Order 004711"), "\(html)")
                #expect(html.contains("href=\"../../download/\(type)/\(id)?signature="), "the button leads to the download link")
                #expect(html.contains("data:image/png;base64,"), "the merchant's logo")
                // The order carries en and de: a German reader gets the page in German, the default reader English.
                let german = try await client.execute(uri: Self.local(add), method: .get, headers: [.acceptLanguage: "de-DE,de;q=0.9"])
                let germanHTML = String(buffer: german.body)
                #expect(germanHTML.contains("<html lang=\"de\">") && germanHTML.contains("Zu Apple Wallet hinzufügen"), "\(germanHTML)")
                #expect(germanHTML.contains("Bestellung 004711") && germanHTML.contains("um die Bestellung zu Wallet hinzuzufügen"))
                #expect(html.contains("<html lang=\"en\">"))

                // An altered signature, another order's identifier, and the order's link under a pass type: 404.
                for forged in [
                    Self.local(download).replacingOccurrences(of: "signature=", with: "signature=A"),
                    Self.local(add).replacingOccurrences(of: id, with: id + "x"),
                    Self.local(download).replacingOccurrences(of: type, with: ServiceHarness.passType),
                ] {
                    #expect(try await client.execute(uri: forged, method: .get).status == .notFound, "\(forged)")
                }
            }
        }
    }

    @Test func withoutALinkSecretAnOrderHasNoLinks() async throws {
        let clock = try OrderHarness.clock()
        try await withStore(.sqlite, clock: clock) { store in
            let service = try OrderHarness.service(store: store, push: RecordingPushSender(), clock: clock)
            try await buildApplication(core: service, logger: .init(label: "order-links")).serviceTest(.router) { client in
                let id = unique("NW")
                let issued = try await client.execute(
                    uri: "/api/v1/orders", method: .post, headers: Self.bearer, body: try OrderHarness.issueBody(id: id))
                #expect(issued.status == .created)
                #expect(try Self.json(issued)["links"] == nil)
                let guessed = try await client.execute(uri: "/wallet/download/\(OrderHarness.type)/\(id)?signature=x", method: .get)
                #expect(guessed.status == .notFound)
            }
        }
    }
}
