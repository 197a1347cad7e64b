public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
public import Passmint
import Synchronization

/// An HTTPS (HTTP/1.1 over TLS) server on a free loopback port, for tests of the service's outgoing calls: the payment
/// processor, Apple's merchant validation. Its certificate is made at start (``ServerCertificate``; trust
/// ``certificateFile``). With `clientCA` it requires a client certificate issued by that CA: a client without one, or
/// with another, fails the handshake and never reaches ``answer``. It keeps every request with the subject of the
/// client certificate it came with.
public final class TLSStandIn: Sendable {
    /// One request received.
    public struct Received: Sendable {
        public var method: String
        public var path: String
        /// Header names in lowercase.
        public var headers: [String: String]
        public var body: [UInt8]
        /// The client certificate's subject (`CN=…`), when one was presented.
        public var clientSubject: String?

        public var json: JSONObject { (try? JSONParser.value(body).objectValue) ?? JSONObject() }
    }

    /// What the handlers record into (made before the server, which they belong to, is bound).
    private final class Recorded: Sendable {
        let list = Mutex<[Received]>([])
    }

    private let recorded = Recorded()

    /// An answer: its status, JSON body and extra headers; `withheld`: none at all (the client waits until it gives up).
    public struct Answer: Sendable {
        public var status: Int
        public var body: String
        public var headers: [(String, String)]
        public var withheld: Bool

        public init(_ status: Int, _ body: String = "{}", headers: [(String, String)] = [], withheld: Bool = false) {
            self.status = status
            self.body = body
            self.headers = headers
            self.withheld = withheld
        }
    }
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    public let port: Int
    /// The server's certificate (PEM), to trust.
    public let certificateFile: String

    /// Binds port 0 on 127.0.0.1 (blocking: create it off the cooperative pool). `answer` answers each request.
    public init(
        folder: URL, clientCA: String? = nil, answer: @escaping @Sendable (Received) -> Answer
    ) throws {
        let made = try ServerCertificate(folder: folder, name: "standin-server")
        certificateFile = made.file.path
        let tls = try made.serverConfiguration(clientCA: clientCA)
        let context = try NIOSSLContext(configuration: tls)
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let recorded = recorded
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                }.flatMap {
                    channel.pipeline.configureHTTPServerPipeline()
                }.flatMapThrowing {
                    try channel.pipeline.syncOperations.addHandler(
                        GoogleStandInHandler(answer: { request in
                            let peer = try? channel.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self).peerCertificate
                            let subject = peer.flatMap { try? Certificate(bytes: try $0.toDERBytes(), source: "client").subject }
                            var headers: [String: String] = [:]
                            for (name, value) in request.headers { headers[name.lowercased()] = value }
                            let received = Received(
                                method: request.method, path: request.path, headers: headers, body: request.body, clientSubject: subject)
                            recorded.list.withLock { $0.append(received) }
                            defer { TestEvents.ring() }
                            let reply = answer(received)
                            return StandInAnswer(status: reply.status, headers: reply.headers, body: reply.body, withheld: reply.withheld)
                        }))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
    }

    /// `https://127.0.0.1:<port>`.
    public var url: String { "https://127.0.0.1:\(port)" }

    /// Every request received, in order.
    public var received: [Received] { recorded.list.withLock { $0 } }

    public func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}
