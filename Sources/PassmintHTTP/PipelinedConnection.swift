import NIOCore
import NIOHTTP1
import NIOTLS

/// One keep-alive HTTP/1.1 connection of a ``DestinationPool``: writes the requests it is given in order and matches
/// each answer to the oldest request not yet answered (HTTP/1.1 answers come in the order of the requests). On the
/// pool's event loop only (hence `@unchecked Sendable`: what crosses to it, in scheduled tasks, runs there).
final class PipelinedConnection: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let pool: DestinationPool
    private let maxBodyBytes: Int
    private var context: ChannelHandlerContext?
    /// Written and not yet answered, oldest first.
    private var outstanding = CircularBuffer<PendingRequest>()
    /// The answer being read.
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    /// Takes no more requests: closing, closed, or told `Connection: close`.
    private(set) var closing = false
    /// The server announced it closes after an answer: the requests written behind it were not acted on.
    private var closeAnnounced = false
    /// Why the connection failed, for the requests it fails.
    private var failure: String?
    private var idleTimer: Scheduled<Void>?
    /// Connected (and, over TLS, the handshake done): before that, a closing connection sent nothing.
    private var established = false

    init(pool: DestinationPool, maxBodyBytes: Int) {
        self.pool = pool
        self.maxBodyBytes = maxBodyBytes
    }

    var inFlight: Int { outstanding.count }

    func write(_ request: PendingRequest) {
        guard let context else { return }
        idleTimer?.cancel()
        idleTimer = nil
        request.connection = self
        outstanding.append(request)
        context.write(wrapOutboundOut(.head(request.parts.head)), promise: nil)
        if let body = request.parts.body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        context.write(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func flush() { context?.flush() }

    @discardableResult
    func close() -> EventLoopFuture<Void> {
        closing = true
        guard let context, context.channel.isActive else { return pool.loop.makeSucceededVoidFuture() }
        let promise = pool.loop.makePromise(of: Void.self)
        context.close(promise: promise)
        return promise.futureResult.recover { _ in }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func channelActive(context: ChannelHandlerContext) {
        if pool.tls == nil { established = true }
        armIdleTimer()
        context.fireChannelActive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent { established = true }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // After a failure (an answer too large, an answer to no request) nothing more read is matched to a request.
        guard failure == nil, !closeAnnounced else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
        case .body(var part):
            guard let head, let request = outstanding.first else { return }
            if body.readableBytes + part.readableBytes > maxBodyBytes {
                // The rest of this answer is not read: the connection cannot carry another.
                outstanding.removeFirst()
                request.fail(
                    KeepAliveHTTPError(
                        .bodyTooLarge,
                        "\(pool.destination.description) answered \(head.status.code) with a body over \(maxBodyBytes) bytes",
                        status: Int(head.status.code)))
                self.head = nil
                failure = "the answer before it was too large"
                close()
                return
            }
            body.writeBuffer(&part)
        case .end:
            guard let head, let request = outstanding.popFirst() else {
                failure = "\(pool.destination.description) sent an answer to no request"
                close()
                return
            }
            self.head = nil
            if !head.isKeepAlive {
                closing = true
                closeAnnounced = true
            }
            request.succeed(
                KeepAliveHTTPClient.Response(
                    status: Int(head.status.code), headers: head.headers, body: Array(body.readableBytesView)))
            if closeAnnounced {
                close()
            } else {
                if outstanding.isEmpty { armIdleTimer() }
                pool.answered(self)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failure = failure ?? "\(error)"
        close()
    }

    func channelInactive(context: ChannelHandlerContext) {
        closing = true
        idleTimer?.cancel()
        let unanswered = Array(outstanding)
        outstanding.removeAll()
        if closeAnnounced {
            pool.closed(self, unsent: unanswered)
        } else {
            let why = failure.map { " (\($0))" } ?? ""
            let error =
                established
                ? KeepAliveHTTPError(
                    .closedBeforeAnswer,
                    "the connection to \(pool.destination.description) closed before the answer\(why): the server may or may not have acted on the request"
                )
                : KeepAliveHTTPError(.connect, "cannot connect to \(pool.destination.description)\(why): nothing was sent")
            for request in unanswered { request.fail(error) }
            pool.closed(self, unsent: [])
        }
        context.fireChannelInactive()
    }

    private func armIdleTimer() {
        idleTimer?.cancel()
        idleTimer = pool.loop.scheduleTask(in: TimeAmount(pool.configuration.idleTimeout)) { [self] in
            if outstanding.isEmpty { close() }
        }
    }
}
