import NIOCore
import NIOHTTP1
import Synchronization

/// One connection's part of the ``ConnectionRegistry``: it registers the connection (closing it when the service is
/// at its connection limit with nothing waiting to close instead, or its address at its own), records when it starts
/// waiting for a request and when a body's parts arrive, and closes it when a request head does not arrive within
/// ``ConnectionLimits/headerTimeout`` of the connection opening or of the previous answer (a slowloris client, or an
/// idle keep-alive connection), or a request's body does not arrive whole within ``ConnectionLimits/bodyTimeout`` of
/// its head (a body trickled in a byte at a time). A request costs a few stores of a timestamp; one timer per
/// connection checks them.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let registry: ConnectionRegistry
    private var connection: ConnectionState?
    /// Requests whose answer has not ended.
    private var pending = 0
    /// When the head of the request whose body is arriving came (uptime nanoseconds), or 0 when no body is arriving.
    private var bodyStarted: Int64 = 0
    private var timer: Scheduled<Void>?
    /// When ``timer`` fires (uptime nanoseconds).
    private var timerDeadline: Int64 = 0

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
        switch unwrapInboundIn(data) {
        case .head:
            pending += 1
            let now = NIODeadline.now().uptimeNanoseconds.asInt64
            bodyStarted = now
            connection?.waitingSince.store(0, ordering: .relaxed)
            connection?.bodySince.store(now, ordering: .relaxed)
            // Only when the body timeout is the shorter one does a request move the timer.
            let bodyDeadline = now + TimeAmount(registry.limits.bodyTimeout).nanoseconds
            if connection != nil, bodyDeadline < timerDeadline {
                timer?.cancel()
                check(context: context, at: NIODeadline.uptimeNanoseconds(UInt64(bodyDeadline)))
            }
        case .body:
            connection?.bodySince.store(NIODeadline.now().uptimeNanoseconds.asInt64, ordering: .relaxed)
        case .end:
            bodyStarted = 0
            connection?.bodySince.store(0, ordering: .relaxed)
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

    /// At `deadline`, closes the connection when it has waited for a request head for the whole header timeout, or for
    /// a body for the whole body timeout; otherwise looks again when the nearest of those would end.
    private func check(context: ChannelHandlerContext, at deadline: NIODeadline) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        timerDeadline = Int64(clamping: deadline.uptimeNanoseconds)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = bound.value
            guard let connection = handler.connection else { return }
            let headerTimeout = TimeAmount(handler.registry.limits.headerTimeout).nanoseconds
            let bodyTimeout = TimeAmount(handler.registry.limits.bodyTimeout).nanoseconds
            let waiting = connection.waitingSince.load(ordering: .relaxed)
            let now = NIODeadline.now().uptimeNanoseconds.asInt64
            var next = now + headerTimeout
            if waiting != 0 {
                guard now - waiting < headerTimeout else { return handler.close(context, .headerTimedOut) }
                next = waiting + headerTimeout
            }
            if handler.bodyStarted != 0 {
                guard now - handler.bodyStarted < bodyTimeout else { return handler.close(context, .bodyTimedOut) }
                next = min(next, handler.bodyStarted + bodyTimeout)
            }
            handler.check(context: context, at: NIODeadline.uptimeNanoseconds(UInt64(max(next, now + 1))))
        }
    }

    private func close(_ context: ChannelHandlerContext, _ reason: ConnectionRegistry.Action) {
        registry.record(reason)
        context.close(promise: nil)
    }
}

extension UInt64 {
    /// As a signed count, for an atomic (uptime in nanoseconds stays far below 2⁶³).
    fileprivate var asInt64: Int64 { Int64(clamping: self) }
}
