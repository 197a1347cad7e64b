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

/// Apple's web-service protocol, every status it can answer, through the real router.
@Suite struct WebServiceProtocolTests {
    /// Issues a pass through the API and returns its serial and token.
    func issue(_ client: some ServiceClient) async throws -> (serial: String, token: String) {
        let serial = unique("L")
        let response = try await client.execute(
            uri: "/api/v1/passes", method: .post,
            headers: [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"],
            body: try ServiceHarness.issueBody(serial: serial))
        #expect(response.status == .created)
        let json = try JSONParser.value(Array(response.body.readableBytesView))
        return (serial, try #require(json["authenticationToken"]?.stringValue))
    }

    @Test(arguments: StoreKind.allCases)
    func everyStatusOfTheProtocol(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            let app = buildApplication(core: service, logger: .init(label: "test"))
            try await app.serviceTest(.router) { client in
                let (serial, token) = try await issue(client)
                let type = ServiceHarness.passType
                let device = unique("dev")
                let registration = "/wallet/v1/devices/\(device)/registrations/\(type)/\(serial)"
                let body = ByteBuffer(string: #"{"pushToken":"\#(pushToken())"}"#)
                let apple: HTTPFields = [.authorization: "ApplePass \(token)", .contentType: "application/json"]

                // 401: missing, wrong scheme, wrong token, unknown serial (indistinguishable).
                for headers: HTTPFields in [[:], [.authorization: "Bearer \(token)"], [.authorization: "ApplePass wrong-token-0123456789"]]
                {
                    try await client.execute(uri: registration, method: .post, headers: headers, body: body) {
                        #expect($0.status == .unauthorized)
                    }
                }
                try await client.execute(
                    uri: "/wallet/v1/devices/\(device)/registrations/\(type)/no-such-serial", method: .post, headers: apple, body: body
                ) {
                    #expect($0.status == .unauthorized)
                }
                // 400: malformed JSON and odd path components; 413: oversized body.
                try await client.execute(uri: registration, method: .post, headers: apple, body: ByteBuffer(string: "{not json")) {
                    #expect($0.status == .badRequest)
                }
                try await client.execute(uri: registration, method: .post, headers: apple, body: ByteBuffer(string: #"{"pushToken": 5}"#)) {
                    #expect($0.status == .badRequest)
                }
                try await client.execute(
                    uri: "/wallet/v1/devices/bad%20device/registrations/\(type)/\(serial)", method: .post, headers: apple, body: body
                ) {
                    #expect($0.status == .badRequest)
                }
                try await client.execute(
                    uri: "/wallet/v1/devices/\(String(repeating: "x", count: 300))/registrations/\(type)/\(serial)", method: .post,
                    headers: apple, body: body
                ) {
                    #expect($0.status == .badRequest)
                }
                try await client.execute(
                    uri: registration, method: .post, headers: apple, body: ByteBuffer(repeating: 0x20, count: 100_000)
                ) {
                    #expect($0.status == .contentTooLarge)
                }
                // 201 then 200; Android's scheme works too.
                try await client.execute(uri: registration, method: .post, headers: apple, body: body) { #expect($0.status == .created) }
                try await client.execute(uri: registration, method: .post, headers: apple, body: body) { #expect($0.status == .ok) }
                try await client.execute(
                    uri: "/wallet/v1/devices/\(unique("android"))/registrations/\(type)/\(serial)", method: .post,
                    headers: [.authorization: "AndroidPass \(token)"], body: body
                ) { #expect($0.status == .created) }

                // Serial numbers: 200 with a string tag, then 204; unknown device 204; bad tag 400.
                var lastUpdated = ""
                try await client.execute(uri: "/wallet/v1/devices/\(device)/registrations/\(type)", method: .get) { response in
                    #expect(response.status == .ok)
                    let json = try JSONParser.value(Array(response.body.readableBytesView))
                    #expect(json["serialNumbers"] == [.string(serial)])
                    lastUpdated = try #require(json["lastUpdated"]?.stringValue, "lastUpdated must be a string")
                }
                try await client.execute(
                    uri: "/wallet/v1/devices/\(device)/registrations/\(type)?passesUpdatedSince=\(lastUpdated)", method: .get
                ) {
                    #expect($0.status == .noContent)
                }
                try await client.execute(uri: "/wallet/v1/devices/\(unique("nobody"))/registrations/\(type)", method: .get) {
                    #expect($0.status == .noContent)
                }
                try await client.execute(
                    uri: "/wallet/v1/devices/\(device)/registrations/\(type)?passesUpdatedSince=yesterday", method: .get
                ) {
                    #expect($0.status == .badRequest)
                }

                // Latest pass: 200 with Last-Modified, 304 with If-Modified-Since, 401 without the token.
                let passURI = "/wallet/v1/passes/\(type)/\(serial)"
                var lastModified = ""
                try await client.execute(uri: passURI, method: .get, headers: [.authorization: "ApplePass \(token)"]) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "application/vnd.apple.pkpass")
                    lastModified = try #require(response.headers[.lastModified])
                    let report = PassVerifier().verify(Array(response.body.readableBytesView), source: "latest", lint: false)
                    #expect(report.isValid)
                }
                try await client.execute(
                    uri: passURI, method: .get, headers: [.authorization: "ApplePass \(token)", .ifModifiedSince: lastModified]
                ) {
                    #expect($0.status == .notModified)
                }
                try await client.execute(
                    uri: passURI, method: .get,
                    headers: [.authorization: "ApplePass \(token)", .ifModifiedSince: "Thu, 01 Jan 1970 00:00:00 GMT"]
                ) {
                    #expect($0.status == .ok)
                }
                try await client.execute(uri: passURI, method: .get) { #expect($0.status == .unauthorized) }
                try await client.execute(
                    uri: "/wallet/v1/passes/\(type)/unknown", method: .get, headers: [.authorization: "ApplePass \(token)"]
                ) {
                    #expect($0.status == .unauthorized)
                }

                // Log: 200 and kept for the operator; malformed 400.
                try await client.execute(
                    uri: "/wallet/v1/log", method: .post,
                    body: ByteBuffer(string: #"{"logs":["Web service error for pass.x: bad response"]}"#)
                ) {
                    #expect($0.status == .ok)
                }
                try await client.execute(uri: "/wallet/v1/log", method: .post, body: ByteBuffer(string: #"{"logs":"x"}"#)) {
                    #expect($0.status == .badRequest)
                }
                #expect(service.deviceLogs.recent.last == "Web service error for pass.x: bad response")

                // Unregister: 401 without the token, 200 with it; the device is gone.
                try await client.execute(uri: registration, method: .delete) { #expect($0.status == .unauthorized) }
                try await client.execute(uri: registration, method: .delete, headers: [.authorization: "ApplePass \(token)"]) {
                    #expect($0.status == .ok)
                }
                try await client.execute(uri: "/wallet/v1/devices/\(device)/registrations/\(type)", method: .get) {
                    #expect($0.status == .noContent)
                }

                // The issuing API needs the key.
                try await client.execute(uri: "/api/v1/passes", method: .post, body: try ServiceHarness.issueBody(serial: unique("X"))) {
                    #expect($0.status == .unauthorized)
                }
                try await client.execute(uri: "/api/v1/passes/\(type)/\(serial)", method: .get, headers: [.authorization: "Bearer wrong"]) {
                    #expect($0.status == .unauthorized)
                }
                try await client.execute(
                    uri: "/api/v1/passes/\(type)/\(serial)", method: .patch, body: ByteBuffer(string: #"{"voided":true}"#)
                ) { #expect($0.status == .unauthorized) }
                try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
            }
        }
    }

    @Test func headAnswersLikeGetWithoutABody() async throws {
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.live) { client in
                let (serial, token) = try await issue(client)
                let uri = "/wallet/v1/passes/\(ServiceHarness.passType)/\(serial)"
                let apple: HTTPFields = [.authorization: "ApplePass \(token)"]
                let get = try await client.execute(uri: uri, method: .get, headers: apple)
                #expect(get.status == .ok)
                try await client.execute(uri: uri, method: .head, headers: apple) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "application/vnd.apple.pkpass")
                    #expect(response.headers[.lastModified] == get.headers[.lastModified])
                    #expect(response.headers[.contentLength] == String(get.body.readableBytes))
                    #expect(response.body.readableBytes == 0)
                }
                try await client.execute(uri: uri, method: .head) { #expect($0.status == .unauthorized) }
                try await client.execute(
                    uri: uri, method: .head, headers: apple + [.ifModifiedSince: try #require(get.headers[.lastModified])]
                ) {
                    #expect($0.status == .notModified)
                }
                try await client.execute(uri: "/health", method: .head) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentLength] == "3")
                    #expect(response.body.readableBytes == 0)
                }
                // The connection is still in step after the bodiless answers.
                try await client.execute(uri: "/health", method: .get) { #expect(String(buffer: $0.body) == "ok\n") }
            }
        }
    }

    @Test func pollsAndPassRowsFollowEveryChange() async throws {
        // The poll and the 304 path are answered from memory between changes: each change must show at once.
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                let type = ServiceHarness.passType
                let device = unique("dev")
                let poll = "/wallet/v1/devices/\(device)/registrations/\(type)"
                func serials(since: String? = nil) async throws -> [String] {
                    let response = try await client.execute(uri: poll + (since.map { "?passesUpdatedSince=\($0)" } ?? ""), method: .get)
                    guard response.status == .ok else { return [] }
                    return try JSONParser.value(Array(response.body.readableBytesView))["serialNumbers"]?.arrayValue?.compactMap(
                        \.stringValue) ?? []
                }
                #expect(try await serials().isEmpty)
                var issued: [String] = []
                for _ in 0..<3 {
                    let (serial, token) = try await issue(client)
                    issued.append(serial)
                    try await client.execute(
                        uri: "/wallet/v1/devices/\(device)/registrations/\(type)/\(serial)", method: .post,
                        headers: [.authorization: "ApplePass \(token)"], body: ByteBuffer(string: #"{"pushToken":"00ff"}"#)
                    ) {
                        #expect($0.status == .created)
                    }
                    #expect(try await serials() == issued, "a registration shows in the next poll")
                }
                let since = try #require(
                    try JSONParser.value(Array(try await client.execute(uri: poll, method: .get).body.readableBytesView))["lastUpdated"]?
                        .stringValue)
                #expect(try await serials(since: since).isEmpty)
                _ = try await service.updates.update(passTypeIdentifier: type, serialNumber: issued[1], data: ["points": 7], voided: nil)
                #expect(try await serials(since: since) == [issued[1]], "an update shows in the next poll")
                let (_, token) = try await issue(client)
                try await client.execute(
                    uri: "/wallet/v1/passes/\(type)/\(issued[0])", method: .get, headers: [.authorization: "ApplePass \(token)"]
                ) {
                    #expect($0.status == .unauthorized, "another pass's token")
                }
            }
        }
    }
}
