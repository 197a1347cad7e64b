import AsyncHTTPClient
import Synchronization

/// The HTTP clients webhook deliveries go out on, kept for the service's life so that connections to a receiver stay
/// open across rounds (keep-alive). One client a receiver host, pinned (its DNS override) to the address the host was
/// checked at (``WebhookAddress``): a host whose checked address changes gets a new client, and the old one is shut
/// down with the rest at ``shutdown()``, never under a delivery in flight.
final class WebhookClients: Sendable {
    private struct State {
        var clients: [String: (address: String, client: HTTPClient)] = [:]
        var retired: [HTTPClient] = []
        var shutDown = false
    }

    private let state = Mutex(State())

    /// The client for `host`, connecting to `address`; nil once shut down.
    func client(host: String, address: String) -> HTTPClient? {
        state.withLock { state in
            guard !state.shutDown else { return nil }
            if let kept = state.clients[host], kept.address == address { return kept.client }
            if let stale = state.clients[host] { state.retired.append(stale.client) }
            var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, connectionPool: .init())
            configuration.dnsOverride = [host: address]
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            state.clients[host] = (address, client)
            return client
        }
    }

    /// Closes every client and its connections (at service shutdown); later rounds get none.
    func shutdown() async {
        let clients = state.withLock { state in
            state.shutDown = true
            defer { (state.clients, state.retired) = ([:], []) }
            return state.clients.values.map(\.client) + state.retired
        }
        for client in clients { try? await client.shutdown() }
    }

    deinit {
        // Never run as a service (a test's rounds): closed here, the task holding each client until it is.
        let clients = state.withLock { $0.clients.values.map(\.client) + $0.retired }
        for client in clients { Task { try? await client.shutdown() } }
    }
}
