import Foundation
import HTTPTypes
import Hummingbird
import Logging
import HummingbirdTesting
import NIOCore
import Passmint
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Synchronization
import Testing

/// The protocol's edges, endpoint by endpoint: every 401, odd path components, oversized bodies, the log's bound,
/// HTTP-dates, updates that change nothing, and orders that fail as a whole.
@Suite struct ProtocolEdgeTests {
    static let type = ServiceHarness.passType
    static let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"]

    /// Runs `body` against the router of a fresh service on `kind`.
    func withService(_ kind: StoreKind = .sqlite, logLimit: Int = 1000, push: RecordingPushSender = RecordingPushSender(),
                     _ body: @escaping @Sendable (ServiceCore, any PassStore, any TestClientProtocol) async throws -> Void) async throws {
        try await withStore(kind) { store in
            let service = try ServiceHarness.service(store: store, push: push, logLimit: logLimit)
            try await buildApplication(core: service, logger: .init(label: "test")).test(.router) { client in
                try await body(service, store, client)
            }
        }
    }

    /// Issues a pass through the API: its serial and token.
    func issue(_ client: some TestClientProtocol, template: String = "Loyalty") async throws -> (serial: String, token: String) {
        let serial = unique("L")
        let response = try await client.execute(uri: "/api/v1/passes", method: .post, headers: Self.bearer, body: try ServiceHarness.issueBody(serial: serial))
        #expect(response.status == .created)
        return (serial, try #require(try JSONParser.value(Array(response.body.readableBytesView))["authenticationToken"]?.stringValue))
    }

    func register(_ client: some TestClientProtocol, device: String, serial: String, token: String, pushToken: String) async throws -> HTTPResponse.Status {
        try await client.execute(uri: "/wallet/v1/devices/\(device)/registrations/\(Self.type)/\(serial)", method: .post,
                                 headers: [.authorization: "ApplePass \(token)"], body: ByteBuffer(string: #"{"pushToken":"\#(pushToken)"}"#)).status
    }

    /// Status, headers and body of a response, to compare two answers whole.
    struct Answer: Equatable {
        var status: HTTPResponse.Status
        var headers: [String]
        var body: [UInt8]
        init(_ response: TestResponse) {
            status = response.status
            headers = response.headers.filter { $0.name != .date }.map { "\($0.name): \($0.value)" }.sorted()
            body = Array(response.body.readableBytesView)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func every401LooksTheSameWhetherOrNotTheSerialExists(_ kind: StoreKind) async throws {
        try await withService(kind) { _, _, client in
            let (serial, token) = try await issue(client)
            let (_, otherToken) = try await issue(client)
            let device = unique("dev")
            let body = ByteBuffer(string: #"{"pushToken":"\#(pushToken())"}"#)
            let credentials: [(String, HTTPFields)] = [
                ("no header", [:]), ("another scheme", [.authorization: "Bearer \(token)"]), ("an empty token", [.authorization: "ApplePass "]),
                ("a wrong token", [.authorization: "ApplePass wrong-token-0123456789"]), ("another pass's token", [.authorization: "ApplePass \(otherToken)"]),
                ("a token with a character more", [.authorization: "ApplePass \(token)x"]), ("lower-case scheme", [.authorization: "applepass \(token)"]),
            ]
            for target in [serial, "no-such-serial"] {
                let requests: [(String, HTTPRequest.Method, ByteBuffer?)] = [
                    ("/wallet/v1/devices/\(device)/registrations/\(Self.type)/\(target)", .post, body),
                    ("/wallet/v1/devices/\(device)/registrations/\(Self.type)/\(target)", .delete, nil),
                    ("/wallet/v1/passes/\(Self.type)/\(target)", .get, nil),
                    ("/wallet/v1/passes/\(Self.type)/\(target)", .head, nil),
                ]
                for (uri, method, requestBody) in requests {
                    var answers: [Answer] = []
                    for (name, headers) in credentials where target == serial || name == "a wrong token" {
                        let response = try await client.execute(uri: uri, method: method, headers: headers, body: requestBody)
                        #expect(response.status == .unauthorized, "\(method) \(uri) with \(name)")
                        answers.append(Answer(response))
                    }
                    // The right token on an unknown serial answers exactly like a wrong token on a known one.
                    let unknownWithToken = Answer(try await client.execute(uri: uri.replacingOccurrences(of: target, with: "no-such-\(target)"),
                                                                           method: method, headers: [.authorization: "ApplePass \(token)"], body: requestBody))
                    #expect(Set(answers.map(\.body)).count == 1 && answers.allSatisfy { $0 == answers[0] }, "\(method) \(uri): every 401 alike")
                    #expect(unknownWithToken == answers[0], "\(method) \(uri): an unknown serial is not told apart")
                }
            }
            // The personalize call checks a token only when one is sent; the issuing API wants its key.
            try await client.execute(uri: "/wallet/v1/passes/\(Self.type)/\(serial)/personalize", method: .post,
                                     headers: [.authorization: "ApplePass wrong-token-0123456789"], body: ByteBuffer(string: "{}")) {
                #expect($0.status == .unauthorized)
            }
            for (uri, method) in [("/api/v1/passes", HTTPRequest.Method.post), ("/api/v1/bundles", .post), ("/api/v1/passes/\(Self.type)/\(serial)", .patch),
                                  ("/api/v1/passes/\(Self.type)/\(serial)", .get), ("/api/v1/logs", .get), ("/api/v1/stats", .get)] {
                for headers: HTTPFields in [[:], [.authorization: "Bearer wrong-key-0123456789"], [.authorization: "ApplePass \(token)"],
                                            [.authorization: "Bearer \(ServiceHarness.apiKey)x"]] {
                    try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: "{}")) {
                        #expect($0.status == .unauthorized, "\(method) \(uri) with \(headers)")
                    }
                }
            }
        }
    }

    @Test func oddPathComponentsAnswer400OnEveryEndpoint() async throws {
        try await withService { _, _, client in
            let (serial, token) = try await issue(client)
            let apple: HTTPFields = [.authorization: "ApplePass \(token)"]
            let body = ByteBuffer(string: #"{"pushToken":"\#(pushToken())"}"#)
            let odd = ["bad%20value", String(repeating: "x", count: 129), "caf%C3%A9", "a%22b", "semi%3Bcolon", "a%2Fb", "%00"]
            // (method, path with {device} {type} {serial}, which of them appear)
            let endpoints: [(HTTPRequest.Method, String, HTTPFields)] = [
                (.post, "/wallet/v1/devices/{device}/registrations/{type}/{serial}", apple),
                (.delete, "/wallet/v1/devices/{device}/registrations/{type}/{serial}", apple),
                (.get, "/wallet/v1/devices/{device}/registrations/{type}", [:]),
                (.get, "/wallet/v1/passes/{type}/{serial}", apple),
                (.post, "/wallet/v1/passes/{type}/{serial}/personalize", [:]),
                (.patch, "/api/v1/passes/{type}/{serial}", Self.bearer),
                (.get, "/api/v1/passes/{type}/{serial}", Self.bearer),
            ]
            let good = ["{device}": unique("dev"), "{type}": Self.type, "{serial}": serial]
            for (method, template, headers) in endpoints {
                for component in good.keys where template.contains(component) {
                    for value in odd {
                        var uri = template.replacingOccurrences(of: component, with: value)
                        for (name, goodValue) in good { uri = uri.replacingOccurrences(of: name, with: goodValue) }
                        let response = try await client.execute(uri: uri, method: method, headers: headers, body: body)
                        #expect(response.status == .badRequest, "\(method) \(uri) answered \(response.status)")
                    }
                }
            }
            // 128 characters is the longest accepted.
            let longest = String(repeating: "d", count: 128)
            #expect(try await register(client, device: longest, serial: serial, token: token, pushToken: pushToken()) == .created)
        }
    }

    @Test func oversizedBodiesAnswer413OnEveryEndpoint() async throws {
        try await withService { _, _, client in
            let (serial, token) = try await issue(client)
            let big = ByteBuffer(bytes: Array(#"{"logs":[""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 70_000) + Array(#""]}"#.utf8))
            let requests: [(String, HTTPRequest.Method, HTTPFields)] = [
                ("/wallet/v1/devices/\(unique("dev"))/registrations/\(Self.type)/\(serial)", .post, [.authorization: "ApplePass \(token)"]),
                ("/wallet/v1/passes/\(Self.type)/\(serial)/personalize", .post, [:]),
                ("/wallet/v1/log", .post, [:]),
                ("/api/v1/passes", .post, Self.bearer),
                ("/api/v1/bundles", .post, Self.bearer),
                ("/api/v1/passes/\(Self.type)/\(serial)", .patch, Self.bearer),
            ]
            for (uri, method, headers) in requests {
                try await client.execute(uri: uri, method: method, headers: headers, body: big) {
                    #expect($0.status == .contentTooLarge, "\(method) \(uri)")
                }
                // Malformed JSON of a small size is a 400 on the same endpoint.
                try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: #"{"unterminated": "#)) {
                    #expect($0.status == .badRequest, "\(method) \(uri) with malformed JSON")
                }
            }
        }
    }

    @Test func deviceLogsAreKeptWithinTheirBound() async throws {
        try await withService(logLimit: 3) { service, _, client in
            for batch in [["one", "two"], ["three", "four", String(repeating: "z", count: 5000)]] {
                let body = JSONWriter.data(["logs": .array(batch.map(JSONValue.string))], style: .compact)
                try await client.execute(uri: "/wallet/v1/log", method: .post, body: ByteBuffer(bytes: body)) { #expect($0.status == .ok) }
            }
            let kept = service.deviceLogs.recent
            #expect(kept == ["three", "four", String(repeating: "z", count: 2000)], "the newest 3, each cut at 2,000 characters")
            try await client.execute(uri: "/api/v1/logs", method: .get, headers: Self.bearer) { response in
                let kept = try JSONParser.value(Array(response.body.readableBytesView))
                #expect(kept.arrayValue?.count == 3)
            }
        }
    }

    /// An IMF-fixdate made independently of the service's own formatter.
    static func httpDate(_ date: Date, format: String = "EEE, dd MMM yyyy HH:mm:ss 'GMT'") -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter.string(from: date)
    }

    @Test func lastModifiedIsAnHTTPDateAndIfModifiedSinceIsCompared() async throws {
        try await withService { _, store, client in
            let before = Date()
            let (serial, token) = try await issue(client)
            let uri = "/wallet/v1/passes/\(Self.type)/\(serial)"
            let apple: HTTPFields = [.authorization: "ApplePass \(token)"]
            let first = try await client.execute(uri: uri, method: .get, headers: apple)
            let lastModified = try #require(first.headers[.lastModified])
            let stored = try #require(try await store.pass(passTypeIdentifier: Self.type, serialNumber: serial))
            #expect(lastModified == Self.httpDate(stored.updatedAt))
            #expect(lastModified.wholeMatch(of: /(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT/) != nil)
            #expect(abs(stored.updatedAt.timeIntervalSince(before)) < 5)

            func status(_ ifModifiedSince: String) async throws -> HTTPResponse.Status {
                try await client.execute(uri: uri, method: .get, headers: apple + [.ifModifiedSince: ifModifiedSince]).status
            }
            #expect(try await status(lastModified) == .notModified)
            #expect(try await status(Self.httpDate(stored.updatedAt.addingTimeInterval(-1))) == .ok, "older than the change")
            #expect(try await status("yesterday") == .ok, "not an HTTP-date: ignored")
            #expect(try await status(Self.httpDate(Date().addingTimeInterval(86_400))) == .ok, "in the future: ignored")
            // A date later than the change and not in the future, in another text than Last-Modified: parsed, 304.
            try await Task.sleep(for: .milliseconds(1100))
            let later = Self.httpDate(Date())
            #expect(later != lastModified)
            #expect(try await status(later) == .notModified)
            // The obsolete forms RFC 9110 asks recipients to read: RFC 850 and asctime().
            let now = Date()
            #expect(try await status(Self.httpDate(now, format: "EEEE, dd-MMM-yy HH:mm:ss 'GMT'")) == .notModified)
            #expect(try await status(Self.httpDate(now, format: "EEE MMM dd HH:mm:ss yyyy")) == .notModified)
            let older = Self.httpDate(stored.updatedAt.addingTimeInterval(-1), format: "EEE MMM dd HH:mm:ss yyyy")
            #expect(try await status(older) == .ok, "asctime, older than the change")
        }
    }

    @Test func updatesThatChangeNothingPushNothingAndVoidingShows() async throws {
        let push = RecordingPushSender()
        try await withService(push: push) { _, store, client in
            let (serial, token) = try await issue(client)
            #expect(try await register(client, device: unique("dev"), serial: serial, token: token, pushToken: pushToken()) == .created)
            let uri = "/api/v1/passes/\(Self.type)/\(serial)"
            let before = try #require(try await store.pass(passTypeIdentifier: Self.type, serialNumber: serial))
            let points = try #require(try JSONParser.value(Array(before.dataJSON.utf8))["points"])
            let same = JSONWriter.data(["data": ["points": points]], style: .compact)
            try await client.execute(uri: uri, method: .patch, headers: Self.bearer, body: ByteBuffer(bytes: same)) { response in
                #expect(response.status == .ok)
                let json = try JSONParser.value(Array(response.body.readableBytesView))
                #expect(json["changed"] == false)
                #expect(json["updateTag"]?.stringValue == String(before.updateTag))
            }
            try await client.execute(uri: uri, method: .patch, headers: Self.bearer, body: ByteBuffer(string: #"{"voided":false}"#)) { response in
                let json = try JSONParser.value(Array(response.body.readableBytesView))
                #expect(json["changed"] == false)
            }
            #expect(push.pushes.withLock { $0.count } == 0, "nothing changed: nothing pushed")

            try await client.execute(uri: uri, method: .patch, headers: Self.bearer, body: ByteBuffer(string: #"{"voided":true}"#)) { response in
                let json = try JSONParser.value(Array(response.body.readableBytesView))
                #expect(json["changed"] == true)
                #expect(json["voided"] == true)
                #expect(json["push"]?["delivered"] == 1)
            }
            #expect(push.pushes.withLock { $0.count } == 1)
            let pass = try await client.execute(uri: "/wallet/v1/passes/\(Self.type)/\(serial)", method: .get, headers: [.authorization: "ApplePass \(token)"])
            let entries = try ZipArchive.read(Array(pass.body.readableBytesView), source: "voided")
            #expect(try JSONParser.value(try #require(entries.first { $0.name == "pass.json" }).bytes)["voided"] == true)
            try await client.execute(uri: "/api/v1/stats", method: .get, headers: Self.bearer) { response in
                let json = try JSONParser.value(Array(response.body.readableBytesView))
                #expect(json["pushes"]?["updates"] == 1)
                #expect(json["pushes"]?["delivered"] == 1)
                #expect(json["pushes"]?["devices"] == 1)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func registrationsKeepPushTokensAndDevicesGoWithTheirLast(_ kind: StoreKind) async throws {
        try await withService(kind) { _, store, client in
            let (first, firstToken) = try await issue(client)
            let (second, secondToken) = try await issue(client)
            let device = unique("dev")
            let oldPush = pushToken()
            let newPush = pushToken()
            #expect(try await register(client, device: device, serial: first, token: firstToken, pushToken: oldPush) == .created)
            #expect(try await register(client, device: device, serial: second, token: secondToken, pushToken: oldPush) == .created)
            #expect(try await register(client, device: device, serial: first, token: firstToken, pushToken: newPush) == .ok)
            let inspection = try #require(store as? any PassStoreInspection)
            #expect(try await inspection.pushToken(deviceLibraryIdentifier: device) == newPush, "a new push token is stored")

            func unregister(_ serial: String, _ token: String) async throws -> HTTPResponse.Status {
                try await client.execute(uri: "/wallet/v1/devices/\(device)/registrations/\(Self.type)/\(serial)", method: .delete,
                                         headers: [.authorization: "ApplePass \(token)"]).status
            }
            #expect(try await unregister(first, firstToken) == .ok)
            #expect(try await inspection.pushToken(deviceLibraryIdentifier: device) == newPush, "one registration left: the device stays")
            #expect(try await unregister(second, secondToken) == .ok)
            #expect(try await inspection.pushToken(deviceLibraryIdentifier: device) == nil, "no registration left: the device is gone")
            #expect(try await unregister(second, secondToken) == .ok, "unregistering again is harmless")
        }
    }

    @Test func trailingSlashOfWebServiceURLStillRoutes() async throws {
        // Apple's samples end webServiceURL with "/", so devices may call …/wallet//v1/….
        try await withService { _, _, client in
            let (serial, token) = try await issue(client)
            let device = unique("dev")
            try await client.execute(uri: "/wallet//v1/devices/\(device)/registrations/\(Self.type)/\(serial)", method: .post,
                                     headers: [.authorization: "ApplePass \(token)"], body: ByteBuffer(string: #"{"pushToken":"\#(pushToken())"}"#)) {
                #expect($0.status == .created)
            }
            try await client.execute(uri: "/wallet//v1/devices/\(device)/registrations/\(Self.type)", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anOrderIsIssuedWholeOrNotAtAll(_ kind: StoreKind) async throws {
        try await withService(kind) { _, store, client in
            func order(_ passes: [JSONObject]) -> ByteBuffer {
                ByteBuffer(bytes: JSONWriter.data(["passes": .array(passes.map { ["template": "Loyalty", "data": .object($0)] })], style: .compact))
            }
            func stored(_ serial: String) async throws -> Bool { try await store.pass(passTypeIdentifier: Self.type, serialNumber: serial) != nil }

            // The third pass lacks a placeholder: nothing is stored.
            let serials = (0..<3).map { _ in unique("O") }
            var broken = try serials.map { try ServiceHarness.loyaltyData(serial: $0) }
            broken[2]["memberName"] = nil
            try await client.execute(uri: "/api/v1/bundles", method: .post, headers: Self.bearer, body: order(broken)) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("passes[2]"), "\(String(buffer: response.body))")
            }
            for serial in serials { #expect(try await stored(serial) == false) }

            // The second serial exists already: the first one stored is taken back.
            let (existing, _) = try await issue(client)
            let fresh = unique("O")
            try await client.execute(uri: "/api/v1/bundles", method: .post, headers: Self.bearer,
                                     body: order([try ServiceHarness.loyaltyData(serial: fresh), try ServiceHarness.loyaltyData(serial: existing)])) { response in
                #expect(response.status == .conflict)
                #expect(String(buffer: response.body).contains("passes[1]"))
            }
            #expect(try await stored(fresh) == false, "the first pass of the failed order is taken back")
            #expect(try await stored(existing), "the pass that existed is untouched")

            // The same serial twice in one order.
            let twice = unique("O")
            try await client.execute(uri: "/api/v1/bundles", method: .post, headers: Self.bearer,
                                     body: order([try ServiceHarness.loyaltyData(serial: twice), try ServiceHarness.loyaltyData(serial: twice)])) {
                #expect($0.status == .badRequest)
            }
            #expect(try await stored(twice) == false)
        }
    }

    @Test func anotherProcessWritingTheSQLiteFileIsSeenByTheService() async throws {
        // `passmint batch --register` writes into the file of a running service: the service's cached answers follow.
        let path = TestEnvironment.temporaryFolder("shared-sqlite").appendingPathComponent("passmint.sqlite").path
        let serving = try SQLitePassStore(path: path)
        try await serving.migrate()
        let service = try ServiceHarness.service(store: serving, push: RecordingPushSender())
        let other = try SQLitePassStore(path: path)  // its own connections, as another process has
        let device = unique("dev")
        let reads = service.deviceReads
        #expect(try await reads.updatedSerials(device: device, passTypeIdentifier: Self.type, since: nil).serialNumbers.isEmpty)
        let generation = serving.changeGeneration

        let issued = try await other.insert(StoredPass(passTypeIdentifier: Self.type, serialNumber: unique("X"), authenticationToken: "token-0123456789abcdef",
                                                       template: "Loyalty", dataJSON: "{}"))
        _ = try await other.register(deviceLibraryIdentifier: device, pushToken: pushToken(), passTypeIdentifier: Self.type, serialNumber: issued.serialNumber)
        var seen: [String] = []
        for _ in 0..<100 where seen.isEmpty {
            seen = try await service.deviceReads.updatedSerials(device: device, passTypeIdentifier: Self.type, since: nil).serialNumbers
            if seen.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(seen == [issued.serialNumber])
        #expect(serving.changeGeneration != generation, "the other connection's commit moved the generation")
    }
}
