import BenchSupport
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// The campaign's stand-in for APNs: HTTP/2 over TLS on loopback, on an event loop group of several threads (each
/// connection lives on one of them), so that it can take more pushes than the clients it measures send. Like APNs it
/// authenticates the client, by a TLS certificate chaining to `clientCA` or by a provider token
/// (``StandInTokenCheck``), and refuses what APNs refuses: another method or path than `POST /3/device/<64 hex>`,
/// no `apns-topic` (or another than `topic`), a body that is not JSON. It records each push it accepted (token and
/// arrival) and answers 200 with an `apns-id`, after `delay` when one is set.
final class APNsStandIn: Sendable {
    enum Authentication: Sendable {
        case certificate(clientCA: URL)
        case token(StandInTokenCheck)
    }

    /// One push accepted.
    struct Received: Sendable {
        var token: String
        var at: ContinuousClock.Instant
    }

    /// What the stream handlers share: what arrived, what was refused, what is waiting for its answer.
    final class Recorder: Sendable {
        struct State {
            var received: [Received] = []
            var refused: [String: Int] = [:]
            var inFlight = 0
            var delay = TimeAmount.zero
        }
        let state = Mutex(State())
        let topic: String
        init(topic: String) { self.topic = topic }
    }

    let recorder: Recorder
    let port: Int
    let threads: Int
    /// The certificate clients must trust for `localhost`, and its file (for `passmint serve --apns-ca`).
    let serverCertificate: NIOSSLCertificate
    let serverCertificateFile: URL
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    var url: URL { URL(string: "https://localhost:\(port)")! }
    var received: [Received] { recorder.state.withLock { $0.received } }
    var receivedCount: Int { recorder.state.withLock { $0.received.count } }
    var inFlight: Int { recorder.state.withLock { $0.inFlight } }
    /// Requests refused, by APNs reason: a benchmark whose clients were refused measured nothing.
    var refused: [String: Int] { recorder.state.withLock { $0.refused } }

    func reset() {
        recorder.state.withLock { state in
            state.received = []
            state.refused = [:]
        }
    }

    /// Makes every answer wait `delay`, so that pushes are still in flight when a node is killed.
    func setResponseDelay(_ delay: Duration) {
        let (seconds, attoseconds) = delay.components
        recorder.state.withLock { $0.delay = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000) }
    }

    /// Listens on a free loopback port with `threads` event loops; its key and certificate are made in `folder`.
    init(authentication: Authentication, topic: String, threads: Int, folder: URL) throws {
        let key = folder.appendingPathComponent("apns-server.key")
        serverCertificateFile = folder.appendingPathComponent("apns-server.pem")
        try BenchShell.selfSignedLocalhost(key: key, certificate: serverCertificateFile)
        guard let certificate = try NIOSSLCertificate.fromPEMFile(serverCertificateFile.path).first else {
            throw CampaignError("no certificate in \(serverCertificateFile.path)")
        }
        serverCertificate = certificate
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate)], privateKey: .privateKey(try NIOSSLPrivateKey(file: key.path, format: .pem)))
        tls.applicationProtocols = ["h2"]
        let tokens: StandInTokenCheck?
        switch authentication {
        case .certificate(let clientCA):
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(clientCA.path))
            tokens = nil
        case .token(let check):
            tls.certificateVerification = .none
            tokens = check
        }
        let context = try NIOSSLContext(configuration: tls)
        let recorder = Recorder(topic: topic)
        self.recorder = recorder
        let threads = max(1, threads)
        self.threads = threads
        group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
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
                                    StandInStreamHandler(recorder: recorder, tokens: tokens),
                                ])
                            }
                        }
                    ).map { _ in }
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
    }

    func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}
