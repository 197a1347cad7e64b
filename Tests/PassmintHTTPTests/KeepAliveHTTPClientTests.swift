import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import PassmintHTTP
import PassmintTestSupport
import Testing

/// The outbound client against real servers on loopback (port 0): connections kept and counted at the server,
/// pipelined answers matched in order, a connection that closes mid-pipeline, `Connection: close`, a timeout, a body
/// over the limit, and TLS verified against a test CA.
@Suite struct KeepAliveHTTPClientTests {
    /// Longer than any run: the tests count connections, and a kept connection must not close for idling while a
    /// loaded machine (the whole suite at once) leaves a minute between two requests.
    static let neverIdle = Duration.seconds(24 * 3600)
    /// How long a request may take where the test is not about time: the suite's bound against a hang. Under the whole
    /// suite's load a 30 s limit once fired before a server's close reached the client (`timed-out` instead of
    /// `closed-before-answer`).
    static let patience = Duration.seconds(TestEvents.bound)

    static func get(_ url: String, _ paths: [String]) -> [KeepAliveHTTPClient.Request] {
        paths.map { KeepAliveHTTPClient.Request(.GET, url + $0) }
    }

    @Test func sequentialRequestsReuseOneConnection() async throws {
        let server = try await ScriptedHTTPServer { _, _ in .answer() }
        let client = KeepAliveHTTPClient(configuration: .init(idleTimeout: Self.neverIdle))
        for index in 0..<5 {
            let response = try await client.execute(
                .init(.POST, server.url + "/r\(index)?q=1", body: Array("{}".utf8)), timeout: Self.patience)
            #expect(response.status == 200 && response.body == Array("/r\(index)?q=1".utf8))
        }
        #expect(server.connections == 1, "each request after the first went on the kept connection")
        await client.shutdown()
        await server.shutdown()
    }

    @Test func theHostHeaderIsAddedUnlessTheRequestGivesOne() async throws {
        let server = try await ScriptedHTTPServer { _, _ in .answer() }
        let client = KeepAliveHTTPClient(configuration: .init(idleTimeout: Self.neverIdle))
        _ = try await client.execute(.init(.GET, server.url + "/a"), timeout: Self.patience)
        _ = try await client.execute(
            .init(.GET, server.url + "/b", headers: [(name: "HOST", value: "passes.example")]), timeout: Self.patience)
        #expect(server.hosts == [["127.0.0.1:\(server.port)"], ["passes.example"]])
        await client.shutdown()
        await server.shutdown()
    }

    @Test func pipelinedAnswersMatchTheirRequestsInOrder() async throws {
        let server = try await ScriptedHTTPServer { _, _ in .answer() }
        let client = KeepAliveHTTPClient(configuration: .init(connectionsPerDestination: 2, pipelineDepth: 16, idleTimeout: Self.neverIdle))
        let paths = (0..<40).map { "/p\($0)" }
        let results = await client.execute(Self.get(server.url, paths), timeout: Self.patience)
        #expect(results.map { (try? $0.get()).map { String(decoding: $0.body, as: UTF8.self) } } == paths)
        #expect(server.connections <= 2)
        // A second batch goes out on the same connections.
        let again = await client.execute(Self.get(server.url, paths), timeout: Self.patience)
        #expect(again.allSatisfy { (try? $0.get().status) == 200 })
        #expect(server.connections <= 2)
        await client.shutdown()
        await server.shutdown()
    }

    /// The server answers two of six pipelined requests and closes: the two are answered, the four fail as not
    /// answered (never reported answered), and the next request opens a new connection.
    @Test func aConnectionClosingMidPipelineFailsOnlyTheUnanswered() async throws {
        let server = try await ScriptedHTTPServer { $1 == "/m2" ? .closeWithoutAnswer : .answer() }
        let client = KeepAliveHTTPClient(configuration: .init(connectionsPerDestination: 1, pipelineDepth: 8, idleTimeout: Self.neverIdle))
        let paths = (0..<6).map { "/m\($0)" }
        let results = await client.execute(Self.get(server.url, paths), timeout: Self.patience)
        #expect(results.prefix(2).map { (try? $0.get()).map { String(decoding: $0.body, as: UTF8.self) } } == ["/m0", "/m1"])
        for result in results.dropFirst(2) {
            #expect(throws: KeepAliveHTTPError.self) { try result.get() }
            if case .failure(let error) = result { #expect(error.code == .closedBeforeAnswer, "\(error)") }
        }
        #expect(server.answered.map(\.path) == ["/m0", "/m1"])
        let next = try await client.execute(.init(.GET, server.url + "/after"), timeout: Self.patience)
        #expect(next.status == 200 && server.connections == 2)
        await client.shutdown()
        await server.shutdown()
    }

    /// `Connection: close` on the second answer: the requests written behind it were not acted on and go out again
    /// on a new connection, each answered exactly once.
    @Test func connectionCloseSendsTheRequestsBehindItAgain() async throws {
        let server = try await ScriptedHTTPServer { $1 == "/c1" ? .answerAndClose : .answer() }
        let client = KeepAliveHTTPClient(configuration: .init(connectionsPerDestination: 1, pipelineDepth: 8, idleTimeout: Self.neverIdle))
        let paths = (0..<6).map { "/c\($0)" }
        let results = await client.execute(Self.get(server.url, paths), timeout: Self.patience)
        #expect(results.map { (try? $0.get()).map { String(decoding: $0.body, as: UTF8.self) } } == paths)
        let answered = server.answered
        #expect(answered.map(\.path).sorted() == paths.sorted(), "each answered once")
        #expect(answered.prefix(2).allSatisfy { $0.connection == 1 } && answered.dropFirst(2).allSatisfy { $0.connection == 2 })
        await client.shutdown()
        await server.shutdown()
    }

    /// A server that never answers: the request fails as timed out, and the connection holding it is not used again.
    /// (A first request opens the connection, so that the one timed out is surely written on it.)
    @Test func aRequestNotAnsweredInTimeFails() async throws {
        let server = try await ScriptedHTTPServer { $1 == "/slow" ? .withhold : .answer() }
        let client = KeepAliveHTTPClient(configuration: .init(connectionsPerDestination: 1, idleTimeout: Self.neverIdle))
        #expect(try await client.execute(.init(.GET, server.url + "/first"), timeout: Self.patience).status == 200)
        await #expect {
            _ = try await client.execute(.init(.GET, server.url + "/slow"), timeout: .milliseconds(200))
        } throws: { ($0 as? KeepAliveHTTPError)?.code == .timedOut }
        let next = try await client.execute(.init(.GET, server.url + "/next"), timeout: Self.patience)
        #expect(next.status == 200 && server.connections == 2)
        await client.shutdown()
        await server.shutdown()
    }

    @Test func aBodyOverTheLimitFailsWithItsStatus() async throws {
        let server = try await ScriptedHTTPServer { $1 == "/big" ? .answer(status: 201, bodyBytes: 4096) : .answer() }
        let client = KeepAliveHTTPClient(configuration: .init(maxBodyBytes: 1024))
        await #expect {
            _ = try await client.execute(.init(.GET, server.url + "/big"), timeout: Self.patience)
        } throws: { ($0 as? KeepAliveHTTPError)?.code == .bodyTooLarge && ($0 as? KeepAliveHTTPError)?.status == 201 }
        #expect(try await client.execute(.init(.GET, server.url + "/small"), timeout: Self.patience).body == Array("/small".utf8))
        await client.shutdown()
        await server.shutdown()
    }

    @Test func aRefusedPortFailsToConnect() async throws {
        let refusing = try RefusingPort()
        let client = KeepAliveHTTPClient()
        await #expect {
            _ = try await client.execute(.init(.GET, "http://127.0.0.1:\(refusing.port)/x"), timeout: Self.patience)
        } throws: { ($0 as? KeepAliveHTTPError)?.code == .connect }
        await client.shutdown()
    }

    /// https with certificate verification: trusted through the test's CA, refused without it; the answer read over
    /// a kept connection.
    @Test func tlsIsVerifiedAgainstTheGivenRoots() async throws {
        let folder = TestEnvironment.temporaryFolder("keepalive-tls")
        let standIn = try await offPool { Result { try TLSStandIn(folder: folder) { _ in .init(200, #"{"ok":true}"#) } } }.get()
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.file(standIn.certificateFile)]
        let trusting = KeepAliveHTTPClient(configuration: .init(tls: tls))
        for _ in 0..<2 {
            let response = try await trusting.execute(.init(.POST, standIn.url + "/pay", body: Array("{}".utf8)), timeout: Self.patience)
            #expect(response.status == 200 && response.body == Array(#"{"ok":true}"#.utf8))
        }
        #expect(standIn.received.map(\.path) == ["/pay", "/pay"])
        let untrusting = KeepAliveHTTPClient()
        await #expect {
            _ = try await untrusting.execute(.init(.GET, standIn.url + "/pay"), timeout: Self.patience)
        } throws: { ($0 as? KeepAliveHTTPError)?.code == .connect }
        #expect(standIn.received.count == 2, "nothing reached the server over an unverified connection")
        await trusting.shutdown()
        await untrusting.shutdown()
        standIn.shutdown()
    }
}
