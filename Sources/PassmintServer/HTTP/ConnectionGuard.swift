import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

/// One connection's part of the ``ConnectionRegistry``: it registers the connection (closing it when the service is
/// at its connection limit with nothing waiting to close instead), records when it starts waiting for a request, and
/// closes it when a request head does not arrive within ``ConnectionLimits/headerTimeout`` of the connection opening
/// or of the previous answer (a slowloris client, or an idle keep-alive connection). A request costs two stores of a
/// timestamp; one timer per connection checks them.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let registry: ConnectionRegistry
    private var connection: ConnectionState?
    /// Requests whose answer has not ended.
    private var pending = 0
    private var timer: Scheduled<Void>?

    init(registry: ConnectionRegistry) {
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard let connection = registry.opened(context.channel) else {
            // Closed once the pipeline is set up, not in the middle of it.
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.eventLoop.execute { bound.value.close(promise: nil) }
            return
        }
        self.connection = connection
        connection.waitingSince.store(NIODeadline.now().uptimeNanoseconds.asInt64, ordering: .relaxed)
        check(context: context, at: .now() + .init(registry.limits.headerTimeout))
    }

    func handlerRemoved(context: ChannelHandlerContext) { unregister(context) }

    func channelInactive(context: ChannelHandlerContext) {
        unregister(context)
        context.fireChannelInactive()
    }

    private func unregister(_ context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        if connection != nil {
            connection = nil
            registry.closed(context.channel)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            pending += 1
            connection?.waitingSince.store(0, ordering: .relaxed)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            pending = max(0, pending - 1)
            if pending == 0 { connection?.waitingSince.store(NIODeadline.now().uptimeNanoseconds.asInt64, ordering: .relaxed) }
        }
        context.write(data, promise: promise)
    }

    /// At `deadline`, closes the connection when it has waited for a request head for the whole timeout; otherwise
    /// looks again when its current wait would end.
    private func check(context: ChannelHandlerContext, at deadline: NIODeadline) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = bound.value
            guard let connection = handler.connection else { return }
            let timeout = TimeAmount(handler.registry.limits.headerTimeout)
            let since = connection.waitingSince.load(ordering: .relaxed)
            let now = NIODeadline.now()
            if since == 0 {
                handler.check(context: context, at: now + timeout)
            } else if now.uptimeNanoseconds.asInt64 - since >= timeout.nanoseconds {
                handler.registry.record(.headerTimedOut)
                context.close(promise: nil)
            } else {
                handler.check(context: context, at: NIODeadline.uptimeNanoseconds(UInt64(since)) + timeout)
            }
        }
    }
}

extension UInt64 {
    /// As a signed count, for an atomic (uptime in nanoseconds stays far below 2⁶³).
    fileprivate var asInt64: Int64 { Int64(clamping: self) }
}
