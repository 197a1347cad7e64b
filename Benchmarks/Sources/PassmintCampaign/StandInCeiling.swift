import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// What the APNs stand-in takes when nothing else limits it: a bare HTTP/2 client (SwiftNIO, no retries, no
/// outbox) on `connections` TLS connections, each on its own event loop, with `window` pushes in flight on each,
/// sending `count` pushes. Every answer must be 200: a refused push means the request was wrong, not fast.
struct StandInCeiling {
    var tls: TLSConfiguration
    /// A provider token's `authorization` value; nil when the TLS configuration carries the client certificate.
    var authorization: String?
    var topic: String
    var connections: Int
    var window: Int

    /// Pushes per second, from the first request to the last answer.
    func measure(against standIn: APNsStandIn, count: Int) throws -> Double {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, connections))
        defer { try? group.syncShutdownGracefully() }
        let context = try NIOSSLContext(configuration: tls)
        var channels: [any Channel] = []
        defer { for channel in channels { channel.close(promise: nil) } }
        for _ in 0..<max(1, connections) {
            channels.append(
                try ClientBootstrap(group: group)
                    .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
                    .channelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(
                                NIOSSLClientHandler(context: context, serverHostname: "localhost"))
                        }.flatMap { channel.configureHTTP2Pipeline(mode: .client, inboundStreamInitializer: nil).map { _ in } }
                    }
                    .connect(host: "127.0.0.1", port: standIn.port).wait())
        }
        let tickets = CeilingCounter(count)
        let failures = CeilingCounter(0)
        var headers = HTTPHeaders()
        headers.add(name: "host", value: "localhost:\(standIn.port)")
        headers.add(name: "apns-topic", value: topic)
        headers.add(name: "apns-push-type", value: "background")
        headers.add(name: "content-type", value: "application/json")
        if let authorization { headers.add(name: "authorization", value: authorization) }
        let head = HTTPRequestHead(version: .http2, method: .POST, uri: "", headers: headers)
        let start = ContinuousClock.now
        var lanes: [EventLoopFuture<Void>] = []
        for (index, channel) in channels.enumerated() {
            let promises = (0..<window).map { _ in channel.eventLoop.makePromise(of: Void.self) }
            lanes += promises.map(\.futureResult)
            let window = self.window
            channel.eventLoop.execute {
                do {
                    let multiplexer = try channel.pipeline.syncOperations.handler(type: HTTP2StreamMultiplexer.self)
                    for (lane, promise) in promises.enumerated() {
                        CeilingLane(
                            multiplexer: multiplexer, head: head, tickets: tickets, failures: failures, done: promise,
                            tokenBase: (index * window + lane) * 10_000_000
                        ).next()
                    }
                } catch {
                    for promise in promises { promise.fail(error) }
                }
            }
        }
        try EventLoopFuture.andAllSucceed(lanes, on: group.next()).wait()
        let seconds = (ContinuousClock.now - start).seconds
        guard failures.current == 0 else {
            throw CampaignError("the stand-in refused \(failures.current) pushes of its ceiling run: \(standIn.refused)")
        }
        return Double(count) / seconds
    }
}

/// A shared count, taken from by every lane.
final class CeilingCounter: Sendable {
    private let value: Atomic<Int>
    init(_ value: Int) { self.value = Atomic(value) }
    var current: Int { value.load(ordering: .relaxed) }
    /// Takes one; false when none was left.
    func take() -> Bool { value.subtract(1, ordering: .relaxed).newValue >= 0 }
    func add() { _ = value.add(1, ordering: .relaxed) }
}

/// Pushes one at a time, each on a new stream of its connection, while tickets last.
private final class CeilingLane: @unchecked Sendable {
    // @unchecked: used only on its connection's event loop.
    let multiplexer: HTTP2StreamMultiplexer
    let head: HTTPRequestHead
    let tickets: CeilingCounter
    let failures: CeilingCounter
    let done: EventLoopPromise<Void>
    let tokenBase: Int
    var sent = 0

    init(
        multiplexer: HTTP2StreamMultiplexer, head: HTTPRequestHead, tickets: CeilingCounter, failures: CeilingCounter,
        done: EventLoopPromise<Void>, tokenBase: Int
    ) {
        self.multiplexer = multiplexer
        self.head = head
        self.tickets = tickets
        self.failures = failures
        self.done = done
        self.tokenBase = tokenBase
    }

    func next() {
        guard tickets.take() else { return done.succeed() }
        var head = self.head
        head.uri = "/3/device/" + String(format: "%064x", tokenBase + sent)
        sent += 1
        let answered = done.futureResult.eventLoop.makePromise(of: Int.self)
        multiplexer.createStreamChannel(promise: nil) { [head] stream in
            stream.eventLoop.makeCompletedFuture {
                try stream.pipeline.syncOperations.addHandlers([
                    HTTP2FramePayloadToHTTP1ClientCodec(httpProtocol: .https), CeilingStreamHandler(head: head, answered: answered),
                ])
            }
        }
        answered.futureResult.whenComplete { result in
            if case .success(200) = result {} else { self.failures.add() }
            self.next()
        }
    }
}

/// Sends one push on its stream when the stream opens; completes `answered` with the status.
private final class CeilingStreamHandler: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: used only on its stream's event loop.
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let head: HTTPRequestHead
    private let answered: EventLoopPromise<Int>
    private var status = 0
    private var finished = false

    init(head: HTTPRequestHead, answered: EventLoopPromise<Int>) {
        self.head = head
        self.answered = answered
    }

    func channelActive(context: ChannelHandlerContext) {
        var headers = head
        headers.headers.replaceOrAdd(name: "content-length", value: "2")
        context.write(wrapOutboundOut(.head(headers)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "{}")))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let response): status = Int(response.status.code)
        case .body: break
        case .end:
            finish(status)
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(0)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(0)
        context.close(promise: nil)
    }

    private func finish(_ status: Int) {
        guard !finished else { return }
        finished = true
        answered.succeed(status)
    }
}
