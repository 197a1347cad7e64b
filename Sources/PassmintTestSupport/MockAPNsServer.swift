public import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
public import NIOSSL
import Synchronization

/// A local HTTP/2 server over TLS that answers like APNs, for tests: it requires a client certificate chaining to
/// `clientCA` (or, given a ``ProviderTokenVerifier``, a valid provider token: 403 `InvalidProviderToken`,
/// `ExpiredProviderToken` or `MissingProviderToken` otherwise), checks `POST /3/device/<64 hex>`, `apns-topic` and a JSON body, records every request, and answers
/// 200, or the status and reason configured for a token (410 `Unregistered`, 400 `BadDeviceToken`, 429, 503…). Each
/// arrival and each answer rings ``TestEvents``.
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
            var behaviors: [String: Behavior] = [:]
            var counts: [String: Int] = [:]
            /// How long each answer waits (to keep requests in flight).
            var delay = TimeAmount.zero
            var inFlight = 0
            var maxInFlight = 0
        }
        let state = Mutex(State())
    }

    private let recorder = Recorder()

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
    /// The certificate clients must trust for `localhost`.
    public let serverCertificate: NIOSSLCertificate

    public var received: [Received] { recorder.state.withLock { $0.received } }

    /// How many pushes were received, without copying them.
    public var receivedCount: Int { recorder.state.withLock { $0.received.count } }

    public func setBehavior(_ behavior: Behavior, for token: String) { recorder.state.withLock { $0.behaviors[token] = behavior } }

    public func reset() {
        recorder.state.withLock { state in
            state.received = []
            state.counts = [:]
            state.maxInFlight = state.inFlight
        }
    }

    /// Starts on a free loopback port. `folder` receives the server's throw-away key and certificate. With
    /// `providerTokens`, clients authenticate with tokens and no client certificate is asked for.
    public init(clientCA: URL, folder: URL, providerTokens: ProviderTokenVerifier? = nil) throws {
        let key = folder.appendingPathComponent("apns-server.key").path
        let certificate = folder.appendingPathComponent("apns-server.pem").path
        let result = try TestEnvironment.run(
            "openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2", "-subj",
                "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ])
        guard result.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
        guard let loaded = try NIOSSLCertificate.fromPEMFile(certificate).first else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no certificate in \(certificate)"])
        }
        serverCertificate = loaded
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(serverCertificate)], privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
        tls.applicationProtocols = ["h2"]
        if providerTokens == nil {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(clientCA.path))
        } else {
            tls.certificateVerification = .none
        }
        let context = try NIOSSLContext(configuration: tls)

        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let recorder = self.recorder
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
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

private final class APNsStreamHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let recorder: MockAPNsServer.Recorder
    private let providerTokens: ProviderTokenVerifier?
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(recorder: MockAPNsServer.Recorder, providerTokens: ProviderTokenVerifier?) {
        self.recorder = recorder
        self.providerTokens = providerTokens
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body(var chunk): body.writeBuffer(&chunk)
        case .end: respond(context: context)
        }
    }

    private func respond(context: ChannelHandlerContext) {
        guard let head else { return }
        var status = 200
        var reason: String?
        let path = head.uri
        let token = path.hasPrefix("/3/device/") ? String(path.dropFirst("/3/device/".count)) : ""
        let text = body.getString(at: body.readerIndex, length: body.readableBytes) ?? ""
        let topic = head.headers.first(name: "apns-topic")
        let authorization = head.headers.first(name: "authorization")
        if let providerTokens, let problem = providerTokens.problem(authorization: authorization) {
            (status, reason) = (403, problem)
        } else if head.method != .POST || token.count != 64 || !token.allSatisfy(\.isHexDigit) {
            (status, reason) = (400, "BadDeviceToken")
        } else if topic == nil {
            (status, reason) = (400, "MissingTopic")
        } else if (try? JSONSerialization.jsonObject(with: Data(text.utf8))) == nil {
            (status, reason) = (400, "PayloadEmpty")
        } else {
            // The TLS handler sits on the connection; this handler on one of its HTTP/2 streams.
            let tls = try? context.channel.parent?.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)
            let subject = tls?.peerCertificate.map { String(describing: $0) }
            recorder.state.withLock { state in
                state.received.append(
                    .init(
                        token: token, topic: topic, pushType: head.headers.first(name: "apns-push-type"), body: text,
                        clientCertificateSubject: subject, authorization: authorization, at: .now,
                        connection: context.channel.parent.map { ObjectIdentifier($0) }))
                let count = state.counts[token, default: 0]
                state.counts[token] = count + 1
                if let answers = state.behaviors[token]?.answers, !answers.isEmpty {
                    let answer = answers[min(count, answers.count - 1)]
                    (status, reason) = (answer.status, answer.reason)
                }
            }
        }
        let delay = recorder.state.withLock { state in
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            return state.delay
        }
        TestEvents.ring()  // a test waiting for this push (or for requests in flight) checks again
        self.head = nil
        body.clear()
        guard delay > .zero else { return answer(context: context, status: status, reason: reason) }
        context.eventLoop.assumeIsolated().scheduleTask(in: delay) { self.answer(context: context, status: status, reason: reason) }
    }

    private func answer(context: ChannelHandlerContext, status: Int, reason: String?) {
        recorder.state.withLock { $0.inFlight -= 1 }
        TestEvents.ring()
        var headers = HTTPHeaders()
        headers.add(name: "apns-id", value: UUID().uuidString)
        var responseBody = ByteBuffer()
        if let reason {
            headers.add(name: "content-type", value: "application/json")
            responseBody.writeString("{\"reason\":\"\(reason)\"}")
        }
        headers.add(name: "content-length", value: String(responseBody.readableBytes))
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http2, status: .init(statusCode: status), headers: headers))), promise: nil)
        if responseBody.readableBytes > 0 { context.write(wrapOutboundOut(.body(.byteBuffer(responseBody))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
