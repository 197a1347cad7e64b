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

#if canImport(Glibc)
    import Glibc
#endif

/// The poll and the 304 answered from memory on the event loop: same bytes as the router, never stale, in order.
@Suite struct DeviceFastPathTests {
    /// A live service with one issued pass registered by one device.
    func withRegisteredPass(
        _ body:
            @Sendable (ServiceCore, any ServiceClient, _ serial: String, _ token: String, _ device: String, any PassStore) async throws
            -> Void
    ) async throws {
        try await withStore(.sqlite) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: service, logger: .init(label: "fast")).serviceTest(.live) { client in
                let serial = unique("F")
                let issued = try await client.execute(
                    uri: "/api/v1/passes", method: .post,
                    headers: [.authorization: "Bearer \(ServiceHarness.apiKey)", .accept: "application/json"],
                    body: try ServiceHarness.issueBody(serial: serial))
                let token = try #require(try JSONParser.value(Array(issued.body.readableBytesView))["authenticationToken"]?.stringValue)
                let device = unique("dev")
                try await client.execute(
                    uri: "/wallet/v1/devices/\(device)/registrations/\(ServiceHarness.passType)/\(serial)", method: .post,
                    headers: [.authorization: "ApplePass \(token)"], body: ByteBuffer(string: #"{"pushToken":"00ff"}"#)
                ) {
                    #expect($0.status == .created)
                }
                try await body(service, client, serial, token, device, store)
            }
        }
    }

    static func comparable(_ response: ServiceResponse) -> String {
        let fields = response.headers.filter { $0.name != .date }.map { "\($0.name): \($0.value)" }.sorted()
        return "\(response.status.code) \(fields) \(String(buffer: response.body))"
    }

    @Test func answersFromMemoryExactlyAsTheRouterDoes() async throws {
        try await withRegisteredPass { service, client, serial, token, device, store in
            let type = ServiceHarness.passType
            let apple: HTTPFields = [.authorization: "ApplePass \(token)"]
            let lastModified = try #require(
                try await client.execute(uri: "/wallet/v1/passes/\(type)/\(serial)", method: .get, headers: apple).headers[.lastModified])
            let requests: [(String, HTTPRequest.Method, HTTPFields)] = [
                ("/wallet/v1/devices/\(device)/registrations/\(type)", .get, [:]),
                ("/wallet/v1/devices/\(device)/registrations/\(type)?passesUpdatedSince=999999", .get, [:]),
                ("/wallet/v1/devices/\(device)/registrations/\(type)", .head, [:]),
                ("/wallet/v1/passes/\(type)/\(serial)", .get, apple + [.ifModifiedSince: lastModified]),
                ("/wallet/v1/passes/\(type)/\(serial)", .head, apple + [.ifModifiedSince: lastModified]),
            ]
            for (uri, method, headers) in requests {
                // Any commit makes the cached answers stale, so the first of the pair goes to the router. The service
                // commits on its own too (its first prune round runs as it starts, and may run late under the whole
                // suite's load): a pair such a commit fell between proves nothing and is taken again.
                var pairs = 0
                while true {
                    pairs += 1
                    _ = try await service.registrations.register(
                        device: unique("other"), pushToken: "00ff", passTypeIdentifier: "pass.other",
                        serialNumber: "x")
                    let generation = store.changeGeneration
                    let before = service.deviceReads.fastPathAnswers
                    let fromRouter = Self.comparable(try await client.execute(uri: uri, method: method, headers: headers))
                    let fromMemory = Self.comparable(try await client.execute(uri: uri, method: method, headers: headers))
                    let answers = service.deviceReads.fastPathAnswers
                    #expect(fromMemory == fromRouter, "\(method) \(uri)")
                    if store.changeGeneration != generation && answers == before && pairs < 10 { continue }
                    #expect(answers == before + 1, "\(method) \(uri): the second answer comes from memory")
                    break
                }
            }
            // Not from memory: a wrong token (401 from the router, even with the pass cached), a pass to send, odd queries.
            let before = service.deviceReads.fastPathAnswers
            try await client.execute(
                uri: "/wallet/v1/passes/\(type)/\(serial)", method: .get,
                headers: [.authorization: "ApplePass wrong-token-0123456789", .ifModifiedSince: lastModified]
            ) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(uri: "/wallet/v1/passes/\(type)/\(serial)", method: .get, headers: apple) { #expect($0.status == .ok) }
            try await client.execute(uri: "/wallet/v1/devices/\(device)/registrations/\(type)?passesUpdatedSince=abc", method: .get) {
                #expect($0.status == .badRequest)
            }
            #expect(service.deviceReads.fastPathAnswers == before)
        }
    }

    @Test func everyChangeShowsInTheNextAnswer() async throws {
        try await withRegisteredPass { service, client, serial, token, device, _ in
            let type = ServiceHarness.passType
            let apple: HTTPFields = [.authorization: "ApplePass \(token)"]
            let poll = "/wallet/v1/devices/\(device)/registrations/\(type)"
            let tag = try #require(
                try JSONParser.value(Array(try await client.execute(uri: poll, method: .get).body.readableBytesView))["lastUpdated"]?
                    .stringValue)
            let lastModified = try #require(
                try await client.execute(uri: "/wallet/v1/passes/\(type)/\(serial)", method: .get, headers: apple).headers[.lastModified])
            for _ in 0..<2 {
                try await client.execute(uri: poll + "?passesUpdatedSince=\(tag)", method: .get) { #expect($0.status == .noContent) }
                try await client.execute(
                    uri: "/wallet/v1/passes/\(type)/\(serial)", method: .get, headers: apple + [.ifModifiedSince: lastModified]
                ) {
                    #expect($0.status == .notModified)
                }
            }
            #expect(service.deviceReads.fastPathAnswers >= 2)
            // No wait for the next second: a change's Last-Modified is always at least a second after the last one.
            _ = try await service.updates.update(passTypeIdentifier: type, serialNumber: serial, data: ["points": 1], voided: nil)
            try await client.execute(uri: poll + "?passesUpdatedSince=\(tag)", method: .get) { response in
                #expect(response.status == .ok, "the update shows at once")
                let serials = try JSONParser.value(Array(response.body.readableBytesView))["serialNumbers"]
                #expect(serials == [.string(serial)])
            }
            try await client.execute(
                uri: "/wallet/v1/passes/\(type)/\(serial)", method: .get, headers: apple + [.ifModifiedSince: lastModified]
            ) {
                #expect($0.status == .ok, "the changed pass is sent, not a 304")
            }
        }
    }

    /// Writes raw HTTP/1.1 to the server and reads until the connection closes.
    struct SocketError: Error {}

    /// ``exchange(port:_:)`` on a thread of its own: a blocking `recv` on the cooperative pool could hold the thread
    /// the server needs to answer (the pool has one thread a core).
    static func exchangeOffPool(port: Int, _ text: String) async throws -> String {
        try await offPool { Result { try exchange(port: port, text) } }.get()
    }

    static func exchange(port: Int, _ text: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError() }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw SocketError() }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count else { throw SocketError() }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withStore(.sqlite) { store in
            var configuration = try ServiceHarness.configuration()
            configuration.port = 0  // a free port, given back once the server listens
            let live = ServiceCore(configuration: configuration, store: store, push: RecordingPushSender(), logger: Logger(label: "fast"))
            let issued = try await live.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("P")))
            let serial = issued.pass.serialNumber
            let token = issued.pass.authenticationToken
            let device = unique("dev")
            _ = try await store.register(
                deviceLibraryIdentifier: device, pushToken: "00ff", passTypeIdentifier: ServiceHarness.passType, serialNumber: serial)
            try await withThrowingTaskGroup(of: Void.self) { group in
                let (listening, bound) = AsyncStream<Int>.makeStream()
                let app = buildApplication(core: live, logger: Logger(label: "fast")) { bound.yield($0) }
                group.addTask { try await app.runService() }
                var ports = listening.makeAsyncIterator()
                let port = try #require(await ports.next())
                let poll = "GET /wallet/v1/devices/\(device)/registrations/\(ServiceHarness.passType) HTTP/1.1\r\nHost: x\r\n\r\n"
                // now cached
                _ = try await Self.exchangeOffPool(
                    port: port, poll.replacingOccurrences(of: "\r\n\r\n", with: "\r\nConnection: close\r\n\r\n"))
                let before = live.deviceReads.fastPathAnswers
                // A slow request for the router, then a poll the fast path could answer at once, then the end.
                let text =
                    "GET /wallet/v1/passes/\(ServiceHarness.passType)/\(serial) HTTP/1.1\r\nHost: x\r\nAuthorization: ApplePass \(token)\r\n\r\n"
                    + poll + "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                let answer = try await Self.exchangeOffPool(port: port, text)
                let pass = try #require(answer.range(of: "application/vnd.apple.pkpass"))
                let serials = try #require(answer.range(of: #"{"serialNumbers":["\#(serial)"]"#))
                let health = try #require(answer.range(of: "\r\n\r\nok\n"))
                #expect(pass.lowerBound < serials.lowerBound && serials.lowerBound < health.lowerBound, "answers in request order")
                #expect(answer.components(separatedBy: "HTTP/1.1 200 OK").count == 4)
                // Pipelined behind the router's request, the poll waited for it and went to the router.
                #expect(live.deviceReads.fastPathAnswers == before)
                group.cancelAll()
            }
        }
    }
}
