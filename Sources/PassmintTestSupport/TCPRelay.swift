import NIOCore
import NIOPosix
import Synchronization

/// A loopback TCP relay to a real server (the test PostgreSQL), which a test can cut and restore: an outage of the
/// database as a node sees it (its connections drop, new ones are refused at once), without stopping the server
/// that the rest of the suite shares.
public final class TCPRelay: Sendable {
    public let port: Int
    private let server: any Channel
    private struct State {
        var cut = false
        var open: [ObjectIdentifier: any Channel] = [:]
    }
    private final class Shared: Sendable {
        let state = Mutex(State())
        func withLock<T>(_ body: (inout State) -> T) -> T { state.withLock { body(&$0) } }
    }
    private let state: Shared

    /// Listens on a free loopback port, relaying each connection to `host`:`targetPort`.
    public init(to host: String = "127.0.0.1", port targetPort: Int) async throws {
        let state = Shared()
        self.state = state
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                if state.withLock({ $0.cut }) { return inbound.close() }
                let (inboundGlue, outboundGlue) = RelayGlue.pair()
                let inboundSide = NIOLoopBound(inboundGlue, eventLoop: inbound.eventLoop)
                let outboundSide = NIOLoopBound(outboundGlue, eventLoop: inbound.eventLoop)
                return ClientBootstrap(group: inbound.eventLoop)
                    .channelInitializer { outbound in
                        outbound.eventLoop.makeCompletedFuture { try outbound.pipeline.syncOperations.addHandler(outboundSide.value) }
                    }
                    .connect(host: host, port: targetPort)
                    .flatMapThrowing { outbound in
                        try inbound.pipeline.syncOperations.addHandler(inboundSide.value)
                        // Cut while this connection was being made: it is closed like the others.
                        let cut = state.withLock { state -> Bool in
                            if !state.cut {
                                state.open[ObjectIdentifier(inbound)] = inbound
                                state.open[ObjectIdentifier(outbound)] = outbound
                            }
                            return state.cut
                        }
                        if cut {
                            inbound.close(promise: nil)
                            outbound.close(promise: nil)
                        }
                        inbound.closeFuture.whenComplete { _ in
                            state.withLock { _ = $0.open.removeValue(forKey: ObjectIdentifier(inbound)) }
                        }
                        outbound.closeFuture.whenComplete { _ in
                            state.withLock { _ = $0.open.removeValue(forKey: ObjectIdentifier(outbound)) }
                        }
                    }
                    .flatMap { inbound.setOption(.autoRead, value: true) }
            }
        server = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        port = server.localAddress?.port ?? 0
    }

    /// The outage: every relayed connection is closed, and new ones are closed as they arrive.
    public func cut() {
        let open = state.withLock { state -> [any Channel] in
            state.cut = true
            return Array(state.open.values)
        }
        for channel in open { channel.close(promise: nil) }
    }

    /// The database is back: new connections are relayed again.
    public func restore() {
        state.withLock { $0.cut = false }
    }

    public func shutdown() async {
        cut()
        try? await server.close()
    }
}

/// Each side of a relayed connection: what one side reads, the other writes; when one closes, so does the other.
/// Both sides run on one event loop.
private final class RelayGlue: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var partner: RelayGlue?
    private var context: ChannelHandlerContext?

    static func pair() -> (RelayGlue, RelayGlue) {
        let (first, second) = (RelayGlue(), RelayGlue())
        first.partner = second
        second.partner = first
        return (first, second)
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner?.context?.writeAndFlush(data, promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.context?.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
