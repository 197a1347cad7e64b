public import Foundation
public import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
public import NIOSSL
public import Passmint
import Synchronization

/// Pushes to APNs over HTTP/2 with the Pass Type ID certificate as the TLS client identity (Apple's documented way
/// for pass updates), or with a provider token (``APNsProviderToken``, a `.p8` key): `POST /3/device/<token>`,
/// `apns-topic` = pass type identifier, body `{}`.
///
/// 410 `Unregistered` and 400 `BadDeviceToken` mean the registration should be removed; 429 and 5xx are retried
/// with exponential back-off; every outcome is logged and returned.
public final class APNsPushSender: PushSender {
    /// Apple's production endpoint; pass updates work only there.
    public static let production = URL(string: "https://api.push.apple.com")!

    public let endpoint: URL
    /// The endpoint's host and port, as each request's `:authority`.
    private let authority: String
    /// The HTTP/2 connections the pushes take in turn, each on its own event loop where the loops allow.
    private let connections: [APNsConnection]
    private let nextConnection = Atomic<UInt>(0)
    private let logger: Logger
    private let concurrency: Int
    private let maxAttempts: Int
    private let retryDelay: Duration
    private let sleep: @Sendable (Duration) async -> Void
    private let requestTimeout: Duration
    private let reachability: APNsReachability
    /// Token-based authentication, when configured; the certificate is not presented then.
    public let providerToken: APNsProviderToken?

    /// - Parameters:
    ///   - identity: the Pass Type ID certificate and key; the intermediates are sent in the TLS handshake.
    ///   - providerToken: authenticate with a `.p8` key's JSON Web Token instead of the certificate.
    ///   - endpoint: APNs (default production), or a test server.
    ///   - trustRoots: roots to trust for the endpoint (default: the system's).
    ///   - concurrency: how many pushes are in flight at once, at least 1.
    ///   - connections: how many HTTP/2 connections the pushes share, at least 1 (each on its own event loop where the
    ///     loops allow; Apple accepts several connections from one provider for high volumes).
    ///   - maxAttempts: how many times one push is tried when APNs answers 429, 5xx or `ExpiredProviderToken`, or does
    ///     not answer; at least 1.
    ///   - retryDelay: the wait before the second attempt; it doubles before each later one.
    ///   - sleep: how a wait between attempts is spent (a test records the waits instead of spending them).
    ///   - connectTimeout: how long opening a connection (TCP) may take.
    ///   - requestTimeout: how long one push may take in all, from the connection's TLS handshake to APNs's answer.
    ///   - unreachableBackOff: after a push fails below HTTP (no connection, no TLS), how long pushes fail at once
    ///     without trying (doubling with each failure, to 60 s) so that the push queue retries them later.
    ///   - now: the time that back-off is measured in (the continuous clock; a test's clock moves only when told).
    ///   - logger: where every outcome is logged: deliveries at `info`, retries at `warning`, refusals at `error`.
    public init(
        identity: SigningIdentity, providerToken: APNsProviderToken? = nil, endpoint: URL = APNsPushSender.production,
        trustRoots: [NIOSSLCertificate]? = nil, concurrency: Int = 128, connections: Int = 2, maxAttempts: Int = 4,
        retryDelay: Duration = .milliseconds(200),
        sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }, connectTimeout: Duration = .seconds(3),
        requestTimeout: Duration = .seconds(10), unreachableBackOff: Duration = .seconds(1),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }, logger: Logger = Logger(label: "passmint.push")
    ) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        if providerToken == nil {
            // APNs trusts one of the two per connection: the certificate only when there is no token.
            let chain = try ([identity.certificate] + identity.intermediates).map {
                try NIOSSLCertificate(bytes: Array($0.pem.utf8), format: .pem)
            }
            tls.certificateChain = chain.map { .certificate($0) }
            tls.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: identity.privateKey.unencryptedPEM, format: .pem))
        }
        self.providerToken = providerToken
        if let trustRoots { tls.trustRoots = .certificates(trustRoots) }
        tls.applicationProtocols = ["h2"]
        let group = MultiThreadedEventLoopGroup.singleton
        guard let host = endpoint.host else {
            throw PassmintError(.invalidData, "the APNs endpoint \(endpoint) names no host: give --apns-url https://HOST[:PORT]")
        }
        self.connections = try (0..<max(1, connections)).map { _ in
            try APNsConnection(
                host: host, port: endpoint.port ?? 443, tls: tls, connectTimeout: connectTimeout, eventLoop: group.next())
        }
        authority = endpoint.port.map { "\(host):\($0)" } ?? host
        self.endpoint = endpoint
        self.logger = logger
        self.concurrency = max(1, concurrency)
        self.maxAttempts = max(1, maxAttempts)
        self.retryDelay = retryDelay
        self.sleep = sleep
        self.requestTimeout = requestTimeout
        self.reachability = APNsReachability(firstBackOff: unreachableBackOff, now: now)
    }

    private let shutDown = Mutex(false)

    /// Closes the HTTP/2 connections.
    public func shutdown() async throws {
        guard
            shutDown.withLock({ state in
                defer { state = true }
                return !state
            })
        else { return }
        for connection in connections { await connection.shutdown() }
    }

    deinit {
        // A sender dropped without shutdown() still closes its connections.
        if !shutDown.withLock({ $0 }) { for connection in connections { connection.close() } }
    }

    public func push(topic: String, pushTokens: [String]) async -> [PushOutcome] {
        await BoundedConcurrency.map(pushTokens, width: concurrency) { token in await self.pushOne(topic: topic, token: token) }
    }

    private func pushOne(topic: String, token: String) async -> PushOutcome {
        var attempt = 0
        var last = PushOutcome(pushToken: token, result: .failed, status: 0, reason: nil, attempts: 0)
        while attempt < maxAttempts {
            attempt += 1
            var wait = retryDelay * (1 << (attempt - 1))
            var request = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/3/device/" + token)
            request.headers.add(name: "host", value: authority)  // :authority
            request.headers.add(name: "apns-topic", value: topic)
            request.headers.add(name: "apns-push-type", value: "background")
            request.headers.add(name: "apns-priority", value: "5")
            request.headers.add(name: "apns-expiration", value: "0")
            request.headers.add(name: "content-type", value: "application/json")
            request.headers.add(name: "content-length", value: "2")
            if let providerToken {
                do {
                    request.headers.add(name: "authorization", value: "bearer " + (try providerToken.token()))
                } catch {
                    logger.error("cannot sign the APNs provider token", metadata: ["error": "\(error.message)"])
                    return PushOutcome(pushToken: token, result: .failed, status: 0, reason: error.message, attempts: attempt)
                }
            }
            if case .refuse(let reason) = await reachability.admit() {
                return PushOutcome(pushToken: token, result: .failed, status: 0, reason: reason, attempts: attempt - 1)
            }
            let response: APNsAnswer
            do {
                let index = Int(nextConnection.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(connections.count))
                response = try await connections[index].send(request, body: Self.payload, timeout: requestTimeout)
            } catch {
                // Below HTTP: later pushes fail at once until the back-off is over, and this one goes back to the
                // queue rather than waiting for another connection attempt here.
                if Task.isCancelled {
                    await reachability.abandoned()
                } else {
                    await reachability.failed("\(error)")
                }
                logger.warning("APNs unreachable", metadata: ["topic": "\(topic)", "error": "\(error)"])
                return PushOutcome(pushToken: token, result: .failed, status: 0, reason: "\(error)", attempts: attempt)
            }
            await reachability.answered()
            let body = response.body
            let status = response.status
            let reason = Self.reason(in: body)
            if status == 410 || (status == 400 && reason == "BadDeviceToken") {
                logger.info(
                    "push token no longer valid", metadata: ["topic": "\(topic)", "status": "\(status)", "reason": "\(reason ?? "")"])
                return PushOutcome(pushToken: token, result: .unregistered, status: status, reason: reason, attempts: attempt)
            }
            switch status {
            case 200:
                logger.debug(
                    "push delivered", metadata: ["topic": "\(topic)", "token": "\(token.prefix(8))…", "attempt": "\(attempt)"])
                return PushOutcome(pushToken: token, result: .delivered, status: status, reason: nil, attempts: attempt)
            case 403 where reason == "ExpiredProviderToken" && providerToken != nil:
                providerToken?.renew()
                last = PushOutcome(pushToken: token, result: .failed, status: status, reason: reason, attempts: attempt)
                logger.notice("APNs provider token expired; signing a new one", metadata: ["topic": "\(topic)"])
            case 429, 500...599:
                let asked = Self.retryAfter(response.headers.first(name: "retry-after"))
                last = PushOutcome(
                    pushToken: token, result: .failed, status: status, reason: reason, attempts: attempt, retryAfter: asked)
                if let asked {
                    // A wait longer than a round should hold the push goes back to the queue, due when APNs said.
                    guard asked <= Self.longestInlineWait else { return last }
                    wait = max(wait, asked)
                }
                logger.warning("push will be retried", metadata: ["topic": "\(topic)", "status": "\(status)", "attempt": "\(attempt)"])
            default:
                logger.error("push refused", metadata: ["topic": "\(topic)", "status": "\(status)", "reason": "\(reason ?? "")"])
                return PushOutcome(pushToken: token, result: .failed, status: status, reason: reason, attempts: attempt)
            }
            if attempt < maxAttempts { await sleep(wait) }
        }
        return last
    }

    /// The notification: an empty JSON object (a pass update carries nothing; the device asks what changed).
    static let payload = ByteBuffer(string: "{}")

    /// The longest `Retry-After` waited for within one push; a longer one ends the attempts and the push queue
    /// schedules the push for then.
    static let longestInlineWait: Duration = .seconds(5)

    /// A `Retry-After` value: delay-seconds, or an HTTP-date (RFC 9110 §10.2.3); nil when absent or unreadable.
    static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
        guard let date = HTTPDate.parse(value, now: now) else { return nil }
        return .seconds(max(0, Int(date.timeIntervalSince(now).rounded(.up))))
    }

    /// The `reason` of an APNs error body `{"reason": "BadDeviceToken"}`.
    static func reason(in body: ByteBuffer) -> String? {
        guard body.readableBytes > 0, let value = try? JSONParser.value(Array(body.readableBytesView)) else { return nil }
        return value["reason"]?.stringValue
    }
}
