import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// One HTTP/2 connection to APNs over TLS, on one event loop: opened by the first push, opened again by the next push
/// after it closed. Each push is a stream of it; NIOHTTP2 holds streams beyond APNs's concurrent-stream limit until
/// others end.
final class APNsConnection: Sendable {
    private enum State {
        case closed
        case opening(EventLoopFuture<NIOHTTP2Handler.StreamMultiplexer>)
        case open(NIOHTTP2Handler.StreamMultiplexer, any Channel)
        case shutDown
    }

    private let host: String
    private let port: Int
    private let context: NIOSSLContext
    private let connectTimeout: TimeAmount
    /// The connection's event loop, and its streams' and timers'.
    private let eventLoop: any EventLoop
    private let state = Mutex(State.closed)

    init(host: String, port: Int, tls: TLSConfiguration, connectTimeout: Duration, eventLoop: any EventLoop) throws {
        self.host = host
        self.port = port
        context = try NIOSSLContext(configuration: tls)
        self.connectTimeout = Self.timeAmount(connectTimeout)
        self.eventLoop = eventLoop
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// Sends one request (head and body) on a new stream; APNs's answer, or why none came within `timeout` (which
    /// counts opening the connection, its TLS handshake included). A stream that cannot be opened (the connection
    /// was closed or told to go away) is tried once more on a new connection.
    func send(_ head: HTTPRequestHead, body: ByteBuffer, timeout: Duration) async throws -> APNsAnswer {
        let answer = eventLoop.makePromise(of: APNsAnswer.self)
        let deadline = eventLoop.scheduleTask(in: Self.timeAmount(timeout)) {
            answer.fail(APNsTransportError("no answer within \(timeout)", timedOut: true))
        }
        answer.futureResult.whenComplete { _ in deadline.cancel() }
        open(head, body: body, answer: answer, again: true)
        do {
            return try await answer.futureResult.get()
        } catch let error as APNsTransportError where error.timedOut {
            // A connection that does not answer (a TLS handshake that hangs, a peer gone silent) is not used again.
            close()
            throw error
        }
    }

    private func open(_ head: HTTPRequestHead, body: ByteBuffer, answer: EventLoopPromise<APNsAnswer>, again: Bool) {
        multiplexer().whenComplete { result in
            switch result {
            case .failure(let error): answer.fail(APNsTransportError("no connection to APNs: \(error)"))
            case .success(let multiplexer):
                let opened = self.eventLoop.makePromise(of: (any Channel).self)
                multiplexer.createStreamChannel(promise: opened) { stream in
                    stream.eventLoop.makeCompletedFuture {
                        try stream.pipeline.syncOperations.addHandlers([
                            HTTP2FramePayloadToHTTP1ClientCodec(httpProtocol: .https),
                            APNsStreamHandler(head: head, body: body, answer: answer),
                        ])
                    }
                }
                opened.futureResult.whenComplete { opening in
                    switch opening {
                    case .success(let stream):
                        // A push that timed out frees its stream.
                        answer.futureResult.whenFailure { _ in stream.close(promise: nil) }
                    case .failure(let error):
                        self.close()
                        if again {
                            self.open(head, body: body, answer: answer, again: false)
                        } else {
                            answer.fail(APNsTransportError("no stream could be opened: \(error)"))
                        }
                    }
                }
            }
        }
    }

    /// The open connection's stream multiplexer, opening the connection first when there is none.
    private func multiplexer() -> EventLoopFuture<NIOHTTP2Handler.StreamMultiplexer> {
        enum Decision {
            case ready(EventLoopFuture<NIOHTTP2Handler.StreamMultiplexer>)
            case connect(EventLoopPromise<NIOHTTP2Handler.StreamMultiplexer>)
        }
        let decision = state.withLock { state -> Decision in
            switch state {
            case .open(let multiplexer, _): return .ready(eventLoop.makeSucceededFuture(multiplexer))
            case .opening(let future): return .ready(future)
            case .shutDown: return .ready(eventLoop.makeFailedFuture(APNsTransportError("the APNs client was shut down")))
            case .closed:
                let promise = eventLoop.makePromise(of: NIOHTTP2Handler.StreamMultiplexer.self)
                state = .opening(promise.futureResult)
                return .connect(promise)
            }
        }
        switch decision {
        case .ready(let future): return future
        case .connect(let promise):
            connect().whenComplete { result in
                switch result {
                case .success(let (channel, multiplexer)):
                    let kept = self.state.withLock { state -> Bool in
                        guard case .opening = state else { return false }
                        state = .open(multiplexer, channel)
                        return true
                    }
                    guard kept else {
                        channel.close(promise: nil)
                        return promise.fail(APNsTransportError("the APNs client was shut down"))
                    }
                    channel.closeFuture.whenComplete { _ in
                        self.state.withLock { state in
                            if case .open(_, let open) = state, open === channel { state = .closed }
                        }
                    }
                    promise.succeed(multiplexer)
                case .failure(let error):
                    self.state.withLock { state in
                        if case .opening = state { state = .closed }
                    }
                    promise.fail(error)
                }
            }
            return promise.futureResult
        }
    }

    private func connect() -> EventLoopFuture<(any Channel, NIOHTTP2Handler.StreamMultiplexer)> {
        let (context, host) = (self.context, self.host)
        // SNI and the certificate's name check take a host name; an address literal (a test server) goes without.
        let serverName = host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) ? nil : host
        return ClientBootstrap(group: eventLoop)
            .connectTimeout(connectTimeout)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                }
            }
            .connect(host: host, port: port)
            .flatMap { channel in
                channel.eventLoop.makeCompletedFuture {
                    let multiplexer = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
                        mode: .client, connectionConfiguration: .init(), streamConfiguration: .init()
                    ) { stream in
                        // APNs opens no streams; one it opened would be refused.
                        stream.close()
                    }
                    return (channel, multiplexer)
                }
            }
    }

    /// Closes the connection; the next push opens another.
    func close() {
        let channel = state.withLock { state -> (any Channel)? in
            guard case .open(_, let channel) = state else { return nil }
            state = .closed
            return channel
        }
        channel?.close(promise: nil)
    }

    /// Closes the connection for good.
    func shutdown() async {
        let channel = state.withLock { state -> (any Channel)? in
            defer { state = .shutDown }
            if case .open(_, let channel) = state { return channel }
            return nil
        }
        try? await channel?.close()
    }
}
