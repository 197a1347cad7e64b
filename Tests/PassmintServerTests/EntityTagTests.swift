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
            try await buildApplication(core: service, logger: Logger(label: "etag")).serviceTest(.router) { client in
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
                #expect(stale.headers[.eTag] == second, "a 412 names the version the pass is at")

                // An unquoted tag is no entity tag: 400 saying so, not a 412 that would send the client to GET again.
                request = Self.patch(#"{"data":{"points":8}}"#, ifMatch: second.filter { $0 != "\"" })
                let unquoted = try await client.execute(uri: uri, method: .patch, headers: request.headers, body: request.body)
                #expect(unquoted.status == .badRequest)
                #expect(String(buffer: unquoted.body).contains("is not an entity tag"), "\(String(buffer: unquoted.body))")
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

    /// A data key holding a line break or `=` (a mapping file read with its Windows line ends) is refused naming it,
    /// instead of being stored beside the placeholders and reported "changed" (issue 40).
    @Test func aDataKeyWithAControlCharacterOrAnEqualsSignIsRefused() async throws {
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            let issued = try await service.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("K")))
            let uri = "/api/v1/passes/\(issued.pass.passTypeIdentifier)/\(issued.pass.serialNumber)"
            try await buildApplication(core: service, logger: Logger(label: "keys")).serviceTest(.router) { client in
                for key in ["memberName\\r\\nPunkte=points", "Punkte=points", "tab\\tkey"] {
                    let request = Self.patch(#"{"data":{"\#(key)": "7"}}"#, ifMatch: nil)
                    let answer = try await client.execute(uri: uri, method: .patch, headers: request.headers, body: request.body)
                    #expect(answer.status == .badRequest, "\(key)")
                    #expect(String(buffer: answer.body).contains("is a placeholder name"), "\(String(buffer: answer.body))")
                    #expect(answer.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", "an error body is never sniffed")
                }
                let body = ByteBuffer(string: #"{"template": "Loyalty", "data": {"serialNumber": "K-=1", "a=b": 1}}"#)
                let issuing = try await client.execute(uri: "/api/v1/passes", method: .post, headers: Self.bearer, body: body)
                #expect(issuing.status == .badRequest, "\(String(buffer: issuing.body))")
            }
            let stored = try #require(
                try await store.pass(passTypeIdentifier: issued.pass.passTypeIdentifier, serialNumber: issued.pass.serialNumber))
            #expect(stored.updateTag == issued.pass.updateTag, "nothing was stored")
        }
    }
}
