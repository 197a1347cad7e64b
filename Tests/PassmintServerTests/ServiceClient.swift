import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore

/// What a server test sends its requests through: the router in memory (``ServiceTestSetup/router``) or a live server
/// on a free port (``ServiceTestSetup/live``, ``LiveServer``). HummingbirdTesting's own protocol cannot be used for the
/// live client: its response type has no public initializer, and its live client gives up after a fixed 20 s.
protocol ServiceClient: Sendable {
    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> ServiceResponse
    /// The port of the live server; nil for the router.
    var port: Int? { get }
}

/// A response as a server test reads it.
struct ServiceResponse: Sendable {
    let head: HTTPResponse
    let body: ByteBuffer
    let trailerHeaders: HTTPFields?

    var status: HTTPResponse.Status { head.status }
    var headers: HTTPFields { head.headerFields }
}

/// How a server test reaches the application.
enum ServiceTestSetup: Sendable {
    /// Requests go to the router in memory (HummingbirdTesting's `.router`).
    case router
    /// The application listens on a free port and one connection carries the requests (``LiveServer``).
    case live
}

extension ApplicationProtocol {
    /// Runs `test` against this application as `setup` says.
    func serviceTest<Value>(_ setup: ServiceTestSetup, _ test: @Sendable (any ServiceClient) async throws -> Value) async throws
        -> Value
    {
        switch setup {
        case .router: try await self.test(.router) { client in try await test(RouterClient(base: client)) }
        case .live: try await LiveServer(application: self).run(test)
        }
    }
}

/// HummingbirdTesting's router client, its responses carried over.
private struct RouterClient: ServiceClient {
    let base: any TestClientProtocol

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> ServiceResponse {
        let response = try await base.executeRequest(uri: uri, method: method, headers: headers, body: body)
        return ServiceResponse(head: response.head, body: response.body, trailerHeaders: response.trailerHeaders)
    }

    var port: Int? { nil }
}
