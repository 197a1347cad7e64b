import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTesting
import Logging
import NIOCore
import PassmintTestSupport
import ServiceLifecycle

/// Runs an application on a free port of `localhost` for one test, and gives the test a client with one kept-alive
/// connection to it. A request waits for its answer up to ``TestEvents/bound``, a bound against a hang: the whole suite
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
            let client = TestClient(host: "localhost", port: port, configuration: .init(timeout: .seconds(TestEvents.bound)))
            client.connect()
            do {
                let value = try await test(LiveClient(client: client, port: port))
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

/// One connection to the live server, kept alive between requests, as HummingbirdTesting's live client sends them.
private struct LiveClient: ServiceClient {
    let client: TestClient
    let port: Int?

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> ServiceResponse {
        var headers = headers
        headers[.connection] = "keep-alive"
        let request = TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body)
        let response = try await client.execute(request)
        return ServiceResponse(head: response.head, body: response.body ?? ByteBuffer(), trailerHeaders: response.trailerHeaders)
    }
}
