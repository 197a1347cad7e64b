public import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A TCP listener on loopback that accepts connections and never says a word: to a TLS client, a handshake that
/// hangs. It counts the connections it accepted, for tests of what a client does when its server stops answering.
public final class SilentPeer: Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let accepted = Arc()
    public let port: Int

    private final class Arc: Sendable {
        let count = Atomic<Int>(0)
    }

    private final class Swallow: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
    }

    public init() throws {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let accepted = self.accepted
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                accepted.count.add(1, ordering: .relaxed)
                return channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Swallow()) }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
    }

    /// `https://127.0.0.1:<port>`.
    public var url: URL { URL(string: "https://127.0.0.1:\(port)")! }

    /// How many connections it accepted so far.
    public var connections: Int { accepted.count.load(ordering: .relaxed) }

    public func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}
