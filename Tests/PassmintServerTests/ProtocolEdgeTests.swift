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
import Synchronization
import Testing

/// The protocol's edges, endpoint by endpoint: every 401, odd path components, oversized bodies, the log's bound,
/// HTTP-dates, updates that change nothing, and orders that fail as a whole.
@Suite struct ProtocolEdgeTests {
    static let type = ServiceHarness.passType
    static let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"]

    /// Runs `body` against the router of a fresh service on `kind`; the store and the service read `clock` when given.
    func withService(
        _ kind: StoreKind = .sqlite, logLimit: Int = 1000, push: RecordingPushSender = RecordingPushSender(), clock: ManualClock? = nil,
        _ body: @escaping @Sendable (ServiceCore, any PassStore, any ServiceClient) async throws -> Void
    ) async throws {
        var now: @Sendable () -> Date = { Date() }
        if let clock { now = clock.today }
        try await withStore(kind, clock: clock) { [now] store in
            let service = try ServiceHarness.service(store: store, push: push, logLimit: logLimit, clock: now)
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                try await body(service, store, client)
            }
        }
    }

    /// Issues a pass through the API: its serial and token.
    func issue(_ client: some ServiceClient, template: String = "Loyalty") async throws -> (serial: String, token: String) {
        let serial = unique("L")
        let response = try await client.execute(
            uri: "/api/v1/passes", method: .post, headers: Self.bearer, body: try ServiceHarness.issueBody(serial: serial))
        #expect(response.status == .created)
        return (serial, try #require(try JSONParser.value(Array(response.body.readableBytesView))["authenticationToken"]?.stringValue))
    }

    func register(_ client: some ServiceClient, device: String, serial: String, token: String, pushToken: String) async throws
        -> HTTPResponse.Status
    {
        try await client.execute(
            uri: "/wallet/v1/devices/\(device)/registrations/\(Self.type)/\(serial)", method: .post,
            headers: [.authorization: "ApplePass \(token)"], body: ByteBuffer(string: #"{"pushToken":"\#(pushToken)"}"#)
        ).status
    }

    /// Status, headers and body of a response, to compare two answers whole.
    struct Answer: Equatable {
        var status: HTTPResponse.Status
        var headers: [String]
        var body: [UInt8]
        init(_ response: ServiceResponse) {
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
                ("no header", [:]), ("another scheme", [.authorization: "Bearer \(token)"]),
                ("an empty token", [.authorization: "ApplePass "]),
                ("a wrong token", [.authorization: "ApplePass wrong-token-0123456789"]),
                ("another pass's token", [.authorization: "ApplePass \(otherToken)"]),
                ("a token with a character more", [.authorization: "ApplePass \(token)x"]),
                ("lower-case scheme", [.authorization: "applepass \(token)"]),
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
                    let unknownWithToken = Answer(
                        try await client.execute(
                            uri: uri.replacingOccurrences(of: target, with: "no-such-\(target)"),
                            method: method, headers: [.authorization: "ApplePass \(token)"], body: requestBody))
                    #expect(
                        Set(answers.map(\.body)).count == 1 && answers.allSatisfy { $0 == answers[0] }, "\(method) \(uri): every 401 alike")
                    #expect(unknownWithToken == answers[0], "\(method) \(uri): an unknown serial is not told apart")
                }
            }
            // The personalize call checks a token only when one is sent; the issuing API wants its key.
            try await client.execute(
                uri: "/wallet/v1/passes/\(Self.type)/\(serial)/personalize", method: .post,
                headers: [.authorization: "ApplePass wrong-token-0123456789"], body: ByteBuffer(string: "{}")
            ) {
                #expect($0.status == .unauthorized)
            }
            for (uri, method) in [
                ("/api/v1/passes", HTTPRequest.Method.post), ("/api/v1/bundles", .post), ("/api/v1/passes/\(Self.type)/\(serial)", .patch),
                ("/api/v1/passes/\(Self.type)/\(serial)", .get), ("/api/v1/logs", .get), ("/api/v1/stats", .get),
            ] {
                for headers: HTTPFields in [
                    [:], [.authorization: "Bearer wrong-key-0123456789"], [.authorization: "ApplePass \(token)"],
                    [.authorization: "Bearer \(ServiceHarness.apiKey)x"],
                ] {
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
            let big = ByteBuffer(
                bytes: Array(#"{"logs":[""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 70_000) + Array(#""]}"#.utf8))
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
}
