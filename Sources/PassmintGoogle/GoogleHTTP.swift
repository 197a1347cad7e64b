import Foundation
import NIOHTTP1
import PassmintHTTP

/// One HTTP exchange with Google, over the service's ``KeepAliveHTTPClient``: up to 8 keep-alive connections to each
/// Google host (the token endpoint, `walletobjects`), requests concurrent over them, none pipelined. A failure below
/// HTTP (no connection, a timeout, an answer over 8 MiB) is an ``GoogleWalletError/Code/unavailable`` error, which the
/// client retries like a 503. Redirects are not followed.
public final class GoogleHTTP: Sendable {
    typealias Response = KeepAliveHTTPClient.Response

    private let client: KeepAliveHTTPClient
    private let timeout: Duration

    public init(timeout: Duration = .seconds(30)) {
        client = KeepAliveHTTPClient(configuration: .init(connectionsPerDestination: 8, maxBodyBytes: 8 << 20))
        self.timeout = timeout
    }

    func send(_ method: String, _ url: String, headers: [(String, String)], body: [UInt8]?) async throws(GoogleWalletError) -> Response {
        let request = KeepAliveHTTPClient.Request(
            HTTPMethod(rawValue: method), url, headers: headers.map { (name: $0.0, value: $0.1) }, body: body)
        do {
            return try await client.execute(request, timeout: timeout)
        } catch {
            throw GoogleWalletError(.unavailable, "cannot reach \(URL(string: url)?.host ?? url): \(error)")
        }
    }

    /// Closes the connections.
    public func shutdown() async throws { await client.shutdown() }
}
