import Foundation
package import NIOCore
package import NIOHTTP1
import NIOPosix
package import NIOSSL
import Synchronization

/// The service's one outbound HTTP/1.1 client (webhook deliveries, payments handed to a processor, Google Wallet): a
/// small pool of keep-alive connections per destination (scheme, host, port and the address connected to), kept for
/// the client's life, spread over the event loop group's loops: each loop holds a sub-pool with its share of
/// ``Configuration/connectionsPerDestination``, and each request goes to the sub-pool with the fewest requests
/// outstanding (ties to the first, so requests one after another keep to one connection). A batch of requests goes
/// to each loop in one hop and out in one flush per connection; on a connection up to
/// ``Configuration/pipelineDepth`` requests are written before the first answer is read (HTTP/1.1 pipelining; answers
/// are matched strictly in order). Redirects are not followed: a 3xx is an answer like any other. https verifies the
/// server's certificate and name (SNI) with ``Configuration/tls``.
///
/// What a connection that closes does to the requests on it: those behind an answer carrying `Connection: close`
/// were not acted on (the server said it reads no further) and go out again on another connection; those on a
/// connection that closed otherwise fail with ``KeepAliveHTTPError/Code/closedBeforeAnswer``, never reported
/// answered: the caller decides whether to send again.
package final class KeepAliveHTTPClient: Sendable {
    package struct Configuration: Sendable {
        /// Connections kept open to one destination.
        package var connectionsPerDestination: Int
        /// Requests written on one connection before its first answer is read; 1 writes the next only after the
        /// answer (no pipelining).
        package var pipelineDepth: Int
        package var connectTimeout: Duration
        /// A connection idle this long is closed.
        package var idleTimeout: Duration
        /// The largest answer body read; a larger one fails its request (``KeepAliveHTTPError/Code/bodyTooLarge``).
        package var maxBodyBytes: Int
        /// How https servers are verified (the system's trust roots unless told otherwise).
        package var tls: TLSConfiguration

        package init(
            connectionsPerDestination: Int = 8, pipelineDepth: Int = 1, connectTimeout: Duration = .seconds(10),
            idleTimeout: Duration = .seconds(60), maxBodyBytes: Int = 1 << 20, tls: TLSConfiguration = .makeClientConfiguration()
        ) {
            self.connectionsPerDestination = max(1, connectionsPerDestination)
            self.pipelineDepth = max(1, pipelineDepth)
            self.connectTimeout = connectTimeout
            self.idleTimeout = idleTimeout
            self.maxBodyBytes = maxBodyBytes
            self.tls = tls
        }
    }

    package struct Request: Sendable {
        package var method: HTTPMethod
        package var url: String
        package var headers: [(name: String, value: String)]
        package var body: [UInt8]?
        /// The IP address to connect to instead of resolving the URL's host (the `Host` header and the TLS name stay
        /// the host's): a caller that checked the address keeps to it.
        package var address: String?

        package init(
            _ method: HTTPMethod, _ url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil,
            address: String? = nil
        ) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
            self.address = address
        }
    }

    package struct Response: Sendable {
        package var status: Int
        package var headers: HTTPHeaders
        package var body: [UInt8]

        /// The first value of the header `name` (any case).
        package func header(_ name: String) -> String? { headers.first(name: name) }
    }

    private struct State {
        var pools: [Destination: [DestinationPool]] = [:]
        var tls: Result<NIOSSLContext, KeepAliveHTTPError>?
        var shutDown = false
    }

    package let configuration: Configuration
    private let group: any EventLoopGroup
    private let state = Mutex(State())

    package init(configuration: Configuration = Configuration(), group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.configuration = configuration
        self.group = group
    }

    /// Sends one request; its answer, or why there is none.
    package func execute(_ request: Request, timeout: Duration) async throws(KeepAliveHTTPError) -> Response {
        try await execute([request], timeout: timeout)[0].get()
    }

    /// Sends `requests` at once (each destination's in one hop to its loop), each within `timeout` from now; the
    /// results in the requests' order.
    package func execute(_ requests: [Request], timeout: Duration) async -> [Result<Response, KeepAliveHTTPError>] {
        var results = [Result<Response, KeepAliveHTTPError>?](repeating: nil, count: requests.count)
        var targets: [String: Target] = [:]
        var batches: [ObjectIdentifier: (pool: DestinationPool, indices: [Int], parts: [RequestParts])] = [:]
        for (index, request) in requests.enumerated() {
            do throws(KeepAliveHTTPError) {
                let key = request.address.map { "\($0) \(request.url)" } ?? request.url
                let target: Target
                if let known = targets[key] {
                    target = known
                } else {
                    target = try Target(url: request.url, address: request.address)
                    targets[key] = target
                }
                let pools = try self.pools(for: target.destination)
                // The sub-pool with the fewest requests outstanding, counting those this call gave it already.
                var pool = pools[0]
                var least = Int.max
                for candidate in pools {
                    let load = candidate.outstanding.load(ordering: .relaxed) + (batches[ObjectIdentifier(candidate)]?.indices.count ?? 0)
                    if load < least {
                        pool = candidate
                        least = load
                    }
                }
                batches[ObjectIdentifier(pool), default: (pool, [], [])].indices.append(index)
                batches[ObjectIdentifier(pool)]?.parts.append(RequestParts(request, target: target))
            } catch {
                results[index] = .failure(error)
            }
        }
        let deadline = NIODeadline.now() + TimeAmount(timeout)
        let sent = batches.values.map { batch in
            batch.pool.outstanding.add(batch.indices.count, ordering: .relaxed)
            return (batch.pool, batch.indices, batch.pool.send(batch.parts, deadline: deadline, timeout: timeout))
        }
        for (pool, indices, answers) in sent {
            // The batch's future never fails: each request's failure is its own result.
            let answers = (try? await answers.get()) ?? []
            pool.outstanding.subtract(indices.count, ordering: .relaxed)
            for (index, answer) in zip(indices, answers) { results[index] = answer }
        }
        return results.map { $0 ?? .failure(KeepAliveHTTPError(.shutDown, "the HTTP client lost a request")) }
    }

    /// Closes every connection; requests waiting or on the wire fail with ``KeepAliveHTTPError/Code/shutDown``, and
    /// later ones too.
    package func shutdown() async {
        let pools = state.withLock { state in
            state.shutDown = true
            defer { state.pools = [:] }
            return state.pools.values.flatMap { $0 }
        }
        for pool in pools { await pool.close() }
    }

    deinit {
        // Never shut down (a test's rounds): the connections close now rather than at their idle timeout.
        for pool in state.withLock({ $0.pools.values.flatMap { $0 } }) { pool.closeSoon() }
    }

    /// The destination's sub-pools, one a loop (at most one a connection), made on first use.
    private func pools(for destination: Destination) throws(KeepAliveHTTPError) -> [DestinationPool] {
        try state.withLock { state throws(KeepAliveHTTPError) in
            guard !state.shutDown else { throw KeepAliveHTTPError(.shutDown, "the HTTP client is shut down") }
            if let pools = state.pools[destination] { return pools }
            var context: NIOSSLContext?
            if destination.tls {
                if state.tls == nil {
                    do {
                        state.tls = .success(try NIOSSLContext(configuration: configuration.tls))
                    } catch {
                        state.tls = .failure(KeepAliveHTTPError(.connect, "the TLS configuration cannot be used: \(error)"))
                    }
                }
                context = try state.tls?.get()
            }
            let loops = Array(group.makeIterator())
            let count = min(loops.count, configuration.connectionsPerDestination)
            // Each destination starts at another loop, so that destinations with one connection spread too.
            let first = state.pools.count
            let pools = (0..<count).map { index in
                let total = configuration.connectionsPerDestination
                var share = configuration
                share.connectionsPerDestination = total / count + (index < total % count ? 1 : 0)
                return DestinationPool(
                    destination: destination, configuration: share, tls: context, loop: loops[(first + index) % loops.count])
            }
            state.pools[destination] = pools
            return pools
        }
    }
}

/// Where a request goes: a pool per destination.
struct Destination: Hashable, Sendable {
    var tls: Bool
    /// The host without brackets (an IPv6 address bare).
    var host: String
    var port: Int
    /// The address connected to instead of the host's, when the caller gave one.
    var address: String?

    var description: String { "\(tls ? "https" : "http")://\(hostHeader)" }

    /// The `Host` header: the port only when it is not the scheme's.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (tls ? 443 : 80) ? name : "\(name):\(port)"
    }
}

/// A URL taken apart once a batch.
struct Target: Sendable {
    var destination: Destination
    /// The path and query as sent (percent-encoded as given).
    var target: String

    init(url: String, address: String?) throws(KeepAliveHTTPError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { throw KeepAliveHTTPError(.invalidURL, "\(url) is not an absolute http or https URL: give e.g. https://example.com/path") }
        let tls = scheme == "https"
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        destination = Destination(tls: tls, host: bare, port: components.port ?? (tls ? 443 : 80), address: address)
        let path = components.percentEncodedPath
        target = (path.isEmpty ? "/" : path) + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
    }
}

/// A request as written on a connection.
struct RequestParts: Sendable {
    var head: HTTPRequestHead
    var body: ByteBuffer?

    init(_ request: KeepAliveHTTPClient.Request, target: Target) {
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headers.count + 2)
        if !request.headers.contains(where: { $0.name.utf8.count == 4 && $0.name.lowercased() == "host" }) {
            headers.add(name: "Host", value: target.destination.hostHeader)
        }
        for header in request.headers { headers.add(name: header.name, value: header.value) }
        if let body = request.body {
            headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
            self.body = ByteBuffer(bytes: body)
        } else {
            if [.POST, .PUT, .PATCH].contains(request.method) { headers.replaceOrAdd(name: "Content-Length", value: "0") }
            self.body = nil
        }
        head = HTTPRequestHead(version: .http1_1, method: request.method, uri: target.target, headers: headers)
    }
}
