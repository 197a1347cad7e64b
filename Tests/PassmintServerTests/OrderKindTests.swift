import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintPush
import PassmintStore
import PassmintTestSupport
import Testing

@testable import PassmintServer

/// An order is a row of the passes' store, but never a pass: every pass path (the issuing API's read, change, erasure
/// and preview, a device's sign-up, Google's image addresses) answers 404 naming the kind for an order's type, and the
/// order is left as it was.
@Suite(.serialized) struct OrderKindTests {
    @Test(arguments: StoreKind.allCases)
    func passPathsAnswer404NamingTheKindForAnOrder(_ kind: StoreKind) async throws {
        let clock = try OrderHarness.clock()
        try await withStore(kind, clock: clock) { store in
            let service = try OrderHarness.service(store: store, push: RecordingPushSender(), clock: clock)
            let id = unique("KIND")
            let issued = try await service.issuing.issueOrder(template: "Shipment", data: try OrderHarness.shipmentData(id: id))
            let type = issued.pass.passTypeIdentifier
            let before = try #require(try await store.pass(passTypeIdentifier: type, serialNumber: id))
            try await buildApplication(core: service, logger: .init(label: "orders")).serviceTest(.router) { client in
                let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)"]
                let requests: [(String, HTTPRequest.Method, ByteBuffer?)] = [
                    ("/api/v1/passes/\(type)/\(id)", .get, nil),
                    ("/api/v1/passes/\(type)/\(id)", .patch, ByteBuffer(string: #"{"data":{"shippingStatus":"delivered"}}"#)),
                    ("/api/v1/passes/\(type)/\(id)", .delete, nil),
                    ("/api/v1/passes/\(type)/\(id)/preview", .get, nil),
                ]
                for (uri, method, body) in requests {
                    let response = try await client.execute(uri: uri, method: method, headers: bearer, body: body)
                    #expect(response.status == .notFound, "\(method) \(uri)")
                    let body = try JSONParser.value(Array(response.body.readableBytesView))
                    let message = body["error"]?["message"]?.stringValue ?? ""
                    #expect(
                        message.contains("\(type) is an order type") && message.contains("/api/v1/orders"), "\(method) \(uri): \(message)")
                }
                // A device's pass path knows no order, whatever scheme carries its token (the order's own path, read
                // first, leaves its row in the read cache).
                let token = issued.pass.authenticationToken
                let own = try await client.execute(
                    uri: "/wallet/v1/orders/\(type)/\(id)", method: .get, headers: [.authorization: "AppleOrder \(token)"])
                #expect(own.status == .ok)
                for scheme in ["ApplePass", "AppleOrder"] {
                    let fetched = try await client.execute(
                        uri: "/wallet/v1/passes/\(type)/\(id)", method: .get, headers: [.authorization: "\(scheme) \(token)"])
                    #expect(fetched.status == .unauthorized, "\(scheme)")
                }
                let signUp = try await client.execute(
                    uri: "/wallet/v1/passes/\(type)/\(id)/personalize", method: .post,
                    body: ByteBuffer(string: #"{"personalizationToken":"tok","requiredPersonalizationInfo":{"fullName":"A"}}"#))
                #expect(signUp.status == .notFound && String(buffer: signUp.body).contains("is an order type"))
            }
            let images = GoogleImageService(renderer: service.updates.renderer, store: store, publicURL: ServiceHarness.publicURL)
            let image = await #expect(throws: ServiceFailure.self) {
                _ = try await images.passImage(passTypeIdentifier: type, serialNumber: id, sha1: String(repeating: "0", count: 40))
            }
            #expect(image?.status == .notFound && image?.message?.contains("is an order type") == true)
            let after = try #require(try await store.pass(passTypeIdentifier: type, serialNumber: id))
            #expect(after.updateTag == before.updateTag && after.dataJSON == before.dataJSON && after.erasedAt == nil)

            // The other way round: a pass's type on the orders API names the kind too.
            let order = await #expect(throws: ServiceFailure.self) {
                _ = try await service.lookup.metadata(.order, passTypeIdentifier: ServiceHarness.passType, serialNumber: id)
            }
            #expect(order?.status == .notFound && order?.message?.contains("is a pass type") == true)
        }
    }
}
