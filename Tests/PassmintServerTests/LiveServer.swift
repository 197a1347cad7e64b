import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTesting
import Logging
import NIOCore
import PassmintTestSupport
import ServiceLifecycle
import Synchronization

/// Runs an application on a free port of `localhost` for one test, and gives the test a client with a kept-alive
/// connection to it (``LiveClient``). A request waits for its answer up to ``TestEvents/bound``, a bound against a hang: the whole suite
/// runs on two cores, where an answer that takes milliseconds alone has taken over 20 s, HummingbirdTesting's fixed
/// limit for its own live client.
struct LiveServer<Base: ApplicationProtocol> {
    let application: Base

    struct NeverListened: Error, CustomStringConvertible {
        var description: String { "the application stopped before it listened: its log says why" }
    }

    func run<Value>(_ test: @Sendable (any ServiceClient) async throws -> Value) async throws -> Value {
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let listener = Listening(base: application, listening: listening)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            let services = ServiceGroup(
                configuration: .init(services: [listener], gracefulShutdownSignals: [], logger: application.logger))
            group.addTask {
                defer { listening.finish() }
                try await services.run()
            }
            var waiting = ports.makeAsyncIterator()
            guard let port = await waiting.next() else {
                try await group.waitForAll()
                throw NeverListened()
            }
            let client = LiveClient(port: port)
            do {
                let value = try await test(client)
                try await client.shutdown()
                await services.triggerGracefulShutdown()
                return value
            } catch {
                try? await client.shutdown()
                await services.triggerGracefulShutdown()
                throw error
            }
        }
    }
}

/// The application as it is, bound to port 0 of `localhost`, telling the port it got.
private struct Listening<Base: ApplicationProtocol>: ApplicationProtocol {
    typealias Responder = Base.Responder
    let base: Base
    let listening: AsyncStream<Int>.Continuation

    var responder: Responder { get async throws { try await base.responder } }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration.with(address: .hostname("localhost", port: 0)) }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    @Sendable func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
        if let port = channel.localAddress?.port { listening.yield(port) }
    }
}

/// A kept-alive connection to the live server, as HummingbirdTesting's live client sends requests. Like any client
/// that keeps connections, it opens a new one when the server has closed the last: the service closes a connection
/// left without a request for its header timeout (30 s), which a test waiting on the whole suite's load can exceed.
final class LiveClient: ServiceClient {
    let port: Int?
    private let connection: Mutex<TestClient>
    private let opened = Atomic(1)

    init(port: Int) {
        self.port = port
        connection = Mutex(Self.connect(port))
    }

    private static func connect(_ port: Int) -> TestClient {
        let client = TestClient(host: "localhost", port: port, configuration: .init(timeout: .seconds(TestEvents.bound)))
        client.connect()
        return client
    }

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> ServiceResponse {
        var headers = headers
        headers[.connection] = "keep-alive"
        let request = TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body)
        // The service may close the connection (idle past its header timeout) just before or while the request is
        // written: the request was then never read, so it goes again on a new connection. A connection of its own
        // closed before its first request (a test's timeout of milliseconds) is opened again too, up to 3 times.
        var attempt = 1
        while true {
            var client = connection.withLock { $0 }
            if try await !client.getChannel().isActive { client = reopen(client) }
            do {
                let response = try await client.execute(request)
                return ServiceResponse(head: response.head, body: response.body ?? ByteBuffer(), trailerHeaders: response.trailerHeaders)
            } catch  where attempt < 3 && Self.closedUnread(error) {
                attempt += 1
                _ = reopen(client)
            }
        }
    }

    /// Whether `error` says the service closed the connection without answering: a write to a closed channel, or a
    /// close or reset before any answer.
    static func closedUnread(_ error: any Error) -> Bool {
        switch error {
        case ChannelError.ioOnClosedChannel, ChannelError.eof, TestClient.Error.connectionClosing: true
        case let error as IOError: [ECONNRESET, EPIPE].contains(error.errnoCode)
        default: false
        }
    }

    /// A new connection in place of `closed` (unless another request already replaced it).
    private func reopen(_ closed: TestClient) -> TestClient {
        connection.withLock { current in
            if current.channelPromise.futureResult === closed.channelPromise.futureResult, let port {
                Task { try? await closed.shutdown() }
                current = Self.connect(port)
                opened.add(1, ordering: .relaxed)
            }
            return current
        }
    }

    /// How many connections the client opened.
    var connectionsOpened: Int { opened.load(ordering: .relaxed) }

    /// Whether the connection is open now.
    var isConnected: Bool { get async { (try? await connection.withLock { $0 }.getChannel().isActive) ?? false } }

    func shutdown() async throws { try await connection.withLock { $0 }.shutdown() }
}
