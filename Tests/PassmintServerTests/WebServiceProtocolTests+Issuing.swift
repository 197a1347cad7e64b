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

/// The issuing API beside the protocol: a pass issued or bad input refused, and the bundles of a multi-ticket order.
extension WebServiceProtocolTests {
    @Test func issuingAPIReturnsAPassAndRefusesBadInput() async throws {
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)"]
                let serial = unique("P")
                try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: bearer, body: try ServiceHarness.issueBody(serial: serial)
                ) { response in
                    #expect(response.status == .created)
                    #expect(response.headers[.contentType] == "application/vnd.apple.pkpass")
                    let entries = try ZipArchive.read(Array(response.body.readableBytesView), source: "issued")
                    let json = try JSONParser.value(try #require(entries.first { $0.name == "pass.json" }).bytes)
                    #expect(json["webServiceURL"]?.stringValue == ServiceHarness.publicURL)
                    #expect((json["authenticationToken"]?.stringValue?.count ?? 0) >= 22)
                    #expect(json["serialNumber"]?.stringValue == serial)
                }
                try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: bearer, body: try ServiceHarness.issueBody(serial: serial)
                ) {
                    #expect($0.status == .conflict)
                }
                try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: bearer, body: ByteBuffer(string: #"{"template":"Nope","data":{}}"#)
                ) {
                    #expect($0.status == .badRequest)
                }
                try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: bearer,
                    body: ByteBuffer(string: #"{"template":"Loyalty","data":{"serialNumber":"x"}}"#)
                ) {
                    #expect($0.status == .unprocessableContent, "a missing placeholder is refused")
                }
                try await client.execute(
                    uri: "/api/v1/passes/\(ServiceHarness.passType)/\(serial)", method: .patch, headers: bearer,
                    body: ByteBuffer(string: #"{"data":{"points":"many"}}"#)
                ) {
                    #expect($0.status == .unprocessableContent, "data that breaks lint is refused")
                }
                try await client.execute(
                    uri: "/api/v1/passes/\(ServiceHarness.passType)/unknown", method: .patch, headers: bearer,
                    body: ByteBuffer(string: #"{"voided":true}"#)
                ) { #expect($0.status == .notFound) }
            }
        }
    }

    @Test func bundlesForAMultiTicketOrder() async throws {
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)"]
                func order(_ count: Int) throws -> ByteBuffer {
                    let passes: [JSONValue] = try (0..<count).map { _ in
                        ["template": "Loyalty", "data": .object(try ServiceHarness.loyaltyData(serial: unique("B")))]
                    }
                    return ByteBuffer(bytes: JSONWriter.data(["passes": .array(passes)], style: .compact))
                }
                try await client.execute(uri: "/api/v1/bundles", method: .post, headers: bearer, body: try order(3)) { response in
                    #expect(response.status == .created)
                    #expect(response.headers[.contentType] == "application/vnd.apple.pkpasses")
                    let entries = try ZipArchive.read(Array(response.body.readableBytesView), source: "bundle")
                    #expect(entries.count == 3)
                    for entry in entries {
                        #expect(entry.name.hasSuffix(".pkpass"))
                        #expect(PassVerifier().verify(entry.bytes, source: entry.name, lint: false).isValid)
                    }
                }
                try await client.execute(uri: "/api/v1/bundles", method: .post, headers: bearer, body: try order(11)) { response in
                    #expect(response.status == .badRequest)
                    #expect(String(buffer: response.body).contains("at most 10"))
                }
                try await client.execute(uri: "/api/v1/bundles", method: .post, body: try order(1)) { #expect($0.status == .unauthorized) }
            }
        }
    }
}
