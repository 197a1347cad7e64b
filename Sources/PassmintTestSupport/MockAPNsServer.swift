public import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
public import NIOSSL
import Synchronization

/// A local HTTP/2 server over TLS that answers like APNs, for the tests and the campaign benchmark: it requires a
/// client certificate chaining to `clientCA` (or, given a ``ProviderTokenVerifier``, a valid provider token: 403
/// `InvalidProviderToken`, `ExpiredProviderToken` or `MissingProviderToken` otherwise), and refuses what APNs refuses
/// (``APNsStreamHandler``): another path than `/3/device/<64 hex>` or another method than `POST`, no `apns-topic` (or,
/// given `topic`, another one), a body that is not a JSON object. It records every push it accepted and counts the
/// refused ones by reason, and answers 200, or the status and reason configured for a token (410 `Unregistered`, 400
/// `BadDeviceToken`, 429, 503…). Its event loop group has `threads` threads (each connection lives on one of them): one
/// for a test, several for the benchmark, which must take more pushes than the clients it measures send. Each arrival
/// and each answer rings ``TestEvents``.
public final class MockAPNsServer: Sendable {
    /// One push the server received.
    public struct Received: Sendable, Equatable {
        public var token: String
        public var topic: String?
        public var pushType: String?
        public var body: String
        /// Subject of the TLS client certificate that sent it.
        public var clientCertificateSubject: String?
        /// The `authorization` header (a provider token), when one was sent.
        public var authorization: String?
        /// When the request arrived.
        public var at: ContinuousClock.Instant
        /// The HTTP/2 connection it came on (one identity for every push of one connection).
        public var connection: ObjectIdentifier?
    }

    /// Answers for a token, used in order; the last one repeats.
    public struct Behavior: Sendable {
        public var answers: [(status: Int, reason: String?)]
        public init(_ answers: [(status: Int, reason: String?)]) { self.answers = answers }
    }

    /// What the server has seen and how it answers, shared with the stream handlers.
    final class Recorder: Sendable {
        struct State {
            var received: [Received] = []
            /// Requests refused, by APNs reason.
            var refused: [String: Int] = [:]
            var behaviors: [String: Behavior] = [:]
            var counts: [String: Int] = [:]
            /// How long each answer waits (to keep requests in flight).
            var delay = TimeAmount.zero
            var inFlight = 0
            var maxInFlight = 0
        }
        let state = Mutex(State())
        /// The only `apns-topic` accepted, when set.
        let topic: String?
        init(topic: String?) { self.topic = topic }
    }

    private let recorder: Recorder

    /// Makes every answer wait `delay` after the request arrived, so that requests stay in flight (concurrency and
    /// shutdown tests).
    public func setResponseDelay(_ delay: Duration) {
        let (seconds, attoseconds) = delay.components
        recorder.state.withLock { $0.delay = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000) }
    }

    /// The most requests that were waiting for their answer at the same time.
    public var maxInFlight: Int { recorder.state.withLock { $0.maxInFlight } }

    /// Requests received and not answered yet.
    public var inFlight: Int { recorder.state.withLock { $0.inFlight } }
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    public let port: Int
    /// Threads of its event loop group.
    public let threads: Int
    /// The certificate clients must trust for `localhost`, and its file (for `passmint serve --apns-ca`).
    public let serverCertificate: NIOSSLCertificate
    public let serverCertificateFile: URL

    public var received: [Received] { recorder.state.withLock { $0.received } }

    /// How many pushes were received, without copying them.
    public var receivedCount: Int { recorder.state.withLock { $0.received.count } }

    /// Requests refused, by APNs reason (`BadDeviceToken`, `TopicDisallowed`, …): a benchmark whose clients were
    /// refused measured nothing.
    public var refused: [String: Int] { recorder.state.withLock { $0.refused } }

    public func setBehavior(_ behavior: Behavior, for token: String) { recorder.state.withLock { $0.behaviors[token] = behavior } }

    public func reset() {
        recorder.state.withLock { state in
            state.received = []
            state.refused = [:]
            state.counts = [:]
            state.maxInFlight = state.inFlight
        }
    }

    /// Starts on a free loopback port. `folder` receives the server's throw-away key and certificate. With
    /// `providerTokens`, clients authenticate with tokens and no client certificate is asked for. With `topic`, a push
    /// for another topic is refused (`TopicDisallowed`).
    public init(clientCA: URL, folder: URL, providerTokens: ProviderTokenVerifier? = nil, topic: String? = nil, threads: Int = 1) throws {
        let made = try ServerCertificate(folder: folder, name: "apns-server")
        serverCertificate = made.certificate
        serverCertificateFile = made.file
        var tls = try made.serverConfiguration(clientCA: providerTokens == nil ? clientCA.path : nil)
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)

        self.threads = max(1, threads)
        group = MultiThreadedEventLoopGroup(numberOfThreads: self.threads)
        let recorder = Recorder(topic: topic)
        self.recorder = recorder
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.backlog, value: 1024)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                }.flatMap {
                    channel.configureHTTP2Pipeline(
                        mode: .server,
                        inboundStreamInitializer: { stream in
                            stream.eventLoop.makeCompletedFuture {
                                try stream.pipeline.syncOperations.addHandlers([
                                    HTTP2FramePayloadToHTTP1ServerCodec(),
                                    APNsStreamHandler(recorder: recorder, providerTokens: providerTokens),
                                ])
                            }
                        }
                    ).map { _ in }
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
    }

    /// The base URL to give an APNs client.
    public var url: URL { URL(string: "https://localhost:\(port)")! }

    public func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}
