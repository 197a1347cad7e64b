import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Passmint
import PassmintServer
import PassmintStore
import Testing

/// The issuing API's optimistic concurrency control: the pass metadata's `ETag` names its version, and a PATCH sent
/// `If-Match` a version the pass is no longer at is refused with 412 and changes nothing.
@Suite struct EntityTagTests {
    static let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)"]

    static func patch(_ body: String, ifMatch: String?) -> (body: ByteBuffer, headers: HTTPFields) {
        var headers = bearer
        if let ifMatch { headers[.ifMatch] = ifMatch }
        return (ByteBuffer(string: body), headers)
    }

    @Test(arguments: StoreKind.allCases)
    func aPatchIfMatchAnOldVersionIsRefused(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            let issued = try await service.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("E")))
            let uri = "/api/v1/passes/\(issued.pass.passTypeIdentifier)/\(issued.pass.serialNumber)"
            try await buildApplication(core: service, logger: Logger(label: "etag")).test(.router) { client in
                let read = try await client.execute(uri: uri, method: .get, headers: Self.bearer)
                let first = try #require(read.headers[.eTag])
                #expect(first == "\"\(issued.pass.updateTag)\"")
                let head = try await client.execute(uri: uri, method: .head, headers: Self.bearer)
                #expect(head.headers[.eTag] == first)

                var request = Self.patch(#"{"data":{"points":7}}"#, ifMatch: first)
                let changed = try await client.execute(uri: uri, method: .patch, headers: request.headers, body: request.body)
                #expect(changed.status == .ok)
                let second = try #require(changed.headers[.eTag])
                #expect(second != first)
                #expect(
                    try JSONParser.value(Array(changed.body.readableBytesView))["updateTag"]?.stringValue == second.filter { $0 != "\"" })

                // Made from the first version, which is gone: refused, and the pass keeps the change above.
                request = Self.patch(#"{"data":{"points":8}}"#, ifMatch: first)
                let stale = try await client.execute(uri: uri, method: .patch, headers: request.headers, body: request.body)
                #expect(stale.status == .preconditionFailed)
                #expect(String(buffer: stale.body).contains("If-Match"))
                let stored = try #require(
                    try await store.pass(passTypeIdentifier: issued.pass.passTypeIdentifier, serialNumber: issued.pass.serialNumber))
                #expect(stored.dataJSON.contains(#""points":7"#) && "\"\(stored.updateTag)\"" == second)

                // A weak tag never matches; a list with the current one does; `*` is any version.
                request = Self.patch(#"{"data":{"points":9}}"#, ifMatch: "W/\(second)")
                #expect(
                    try await client.execute(uri: uri, method: .patch, headers: request.headers, body: request.body).status
                        == .preconditionFailed)
                request = Self.patch(#"{"data":{"points":9}}"#, ifMatch: "\(first), \(second)")
                let listed = try await client.execute(uri: uri, method: .patch, headers: request.headers, body: request.body)
                #expect(listed.status == .ok)
                request = Self.patch(#"{"voided":true}"#, ifMatch: "*")
                #expect(try await client.execute(uri: uri, method: .patch, headers: request.headers, body: request.body).status == .ok)
            }
        }
    }
}
