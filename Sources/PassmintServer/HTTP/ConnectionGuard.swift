import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// One connection's part of the ``ConnectionRegistry``: it registers the connection (closing it when the service is
/// at its connection limit with nothing idle to close instead), marks it idle while it waits for a request and busy
/// while it has one, and closes it when a request head does not arrive within ``ConnectionLimits/headerTimeout`` of
/// the connection opening or of the previous answer (a slowloris client, or an idle keep-alive connection).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let registry: ConnectionRegistry
    private var registered = false
    /// Requests whose answer has not ended.
    private var pending = 0
    private var headTimer: Scheduled<Void>?

    init(registry: ConnectionRegistry) {
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard registry.opened() else {
            // Closed once the pipeline is set up, not in the middle of it.
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.eventLoop.execute { bound.value.close(promise: nil) }
            return
        }
        registered = true
        waitForHead(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        headTimer?.cancel()
        headTimer = nil
        if registered {
            registered = false
            registry.closed(ObjectIdentifier(context.channel))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        headTimer?.cancel()
        headTimer = nil
        if registered {
            registered = false
            registry.closed(ObjectIdentifier(context.channel))
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            pending += 1
            headTimer?.cancel()
            headTimer = nil
            registry.busy(ObjectIdentifier(context.channel))
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            pending = max(0, pending - 1)
            if pending == 0 { waitForHead(context: context) }
        }
        context.write(data, promise: promise)
    }

    private func waitForHead(context: ChannelHandlerContext) {
        guard registered else { return }
        registry.idle(context.channel)
        headTimer?.cancel()
        let registry = self.registry
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        headTimer = context.eventLoop.scheduleTask(in: .init(registry.limits.headerTimeout)) {
            registry.record(.headerTimedOut)
            bound.value.close(promise: nil)
        }
    }
}
