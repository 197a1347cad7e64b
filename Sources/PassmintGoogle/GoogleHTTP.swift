import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One HTTP exchange with Google, over AsyncHTTPClient. A failure below HTTP (no connection, a timeout) is an
/// ``GoogleWalletError/Code/unavailable`` error, which the client retries like a 503.
public final class GoogleHTTP: Sendable {
    struct Response: Sendable {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name }?.1 }
    }

    private let client: HTTPClient
    private let timeout: Duration

    public init(timeout: Duration = .seconds(30)) {
        client = HTTPClient(eventLoopGroupProvider: .singleton)
        self.timeout = timeout
    }

    func send(_ method: String, _ url: URL, headers: [(String, String)], body: [UInt8]?) async throws(GoogleWalletError) -> Response {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await client.execute(request, timeout: .init(timeout))
            let bytes = try await response.body.collect(upTo: 8 << 20)
            return Response(
                status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                body: Array(bytes.readableBytesView))
        } catch {
            throw GoogleWalletError(.unavailable, "cannot reach \(url.host ?? url.absoluteString): \(error)")
        }
    }

    /// Closes the connections.
    public func shutdown() async throws { try await client.shutdown() }
}
