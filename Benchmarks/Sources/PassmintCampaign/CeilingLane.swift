import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import Synchronization

/// A shared count, taken from by every lane.
final class CeilingCounter: Sendable {
    private let value: Atomic<Int>
    init(_ value: Int) { self.value = Atomic(value) }
    /// Takes one; false when none was left.
    func take() -> Bool { value.subtract(1, ordering: .relaxed).newValue >= 0 }
}

/// Pushes one at a time, each on a new stream of its connection, while tickets last. `done` succeeds when the tickets
/// are gone, and fails with the first thing that went wrong: a stream that could not be opened, an answer other
/// than 200, a stream closed before its answer, no answer within `answerTimeout`.
final class CeilingLane: @unchecked Sendable {
    // @unchecked: used only on its connection's event loop, which its streams share.
    let connection: Int
    let lane: Int
    let multiplexer: HTTP2StreamMultiplexer
    let head: HTTPRequestHead
    let tickets: CeilingCounter
    let done: EventLoopPromise<Void>
    let tokenBase: Int
    let answerTimeout: TimeAmount
    private var sent = 0
    /// The push waiting for its answer, and the task that ends the lane if none comes in time.
    private var waiting: (push: Int, timer: Scheduled<Void>)?
    private var ended = false

    init(
        connection: Int, lane: Int, multiplexer: HTTP2StreamMultiplexer, head: HTTPRequestHead, tickets: CeilingCounter,
        done: EventLoopPromise<Void>, tokenBase: Int, answerTimeout: TimeAmount
    ) {
        self.connection = connection
        self.lane = lane
        self.multiplexer = multiplexer
        self.head = head
        self.tickets = tickets
        self.done = done
        self.tokenBase = tokenBase
        self.answerTimeout = answerTimeout
    }

    func next() {
        guard !ended else { return }
        guard tickets.take() else { return end(nil) }
        let push = sent
        sent += 1
        var head = self.head
        head.uri = "/3/device/" + String(format: "%064x", tokenBase + push)
        let eventLoop = done.futureResult.eventLoop
        let timeout = answerTimeout
        let timer = eventLoop.scheduleTask(in: timeout) { self.settle(push, .failure(CampaignError("no answer within \(timeout)"))) }
        waiting = (push, timer)
        let opened = eventLoop.makePromise(of: (any Channel).self)
        opened.futureResult.whenFailure { error in
            self.settle(push, .failure(CampaignError("its stream could not be opened: \(error)")))
        }
        multiplexer.createStreamChannel(promise: opened) { [head] stream in
            stream.eventLoop.makeCompletedFuture {
                try stream.pipeline.syncOperations.addHandlers([
                    HTTP2FramePayloadToHTTP1ClientCodec(httpProtocol: .https),
                    CeilingStreamHandler(head: head) { self.settle(push, $0) },
                ])
            }
        }
    }

    /// The outcome of `push` (only the first counts): the next push after a 200, else the lane ends with what failed.
    private func settle(_ push: Int, _ outcome: Result<Int, any Error>) {
        guard let waiting, waiting.push == push else { return }
        self.waiting = nil
        waiting.timer.cancel()
        switch outcome {
        case .success(200): next()
        case .success(let status):
            end(CampaignError("push \(push) of lane \(lane) on connection \(connection): the stand-in answered \(status)"))
        case .failure(let error): end(CampaignError("push \(push) of lane \(lane) on connection \(connection): \(error)"))
        }
    }

    private func end(_ error: (any Error)?) {
        guard !ended else { return }
        ended = true
        if let error { done.fail(error) } else { done.succeed() }
    }
}

/// Sends one push on its stream when the stream opens; reports the answer's status, or why none came.
private final class CeilingStreamHandler: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: used only on its stream's event loop.
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let head: HTTPRequestHead
    private let answered: (Result<Int, any Error>) -> Void
    private var status = 0
    private var finished = false

    init(head: HTTPRequestHead, answered: @escaping (Result<Int, any Error>) -> Void) {
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
        // Not closed here: both ends have ended the stream, so it closes by itself. Closing it now would send a
        // RST_STREAM for every push, and NIOHTTP2's rapid-reset defence in the stand-in drops a connection after
        // 200 of them in 30 s (GOAWAY), which left the lanes of that connection waiting forever.
        case .end: finish(.success(status))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(CampaignError("its stream closed before the answer (the stand-in closed it or its connection)")))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(CampaignError("its stream failed: \(error)")))
        context.close(promise: nil)
    }

    private func finish(_ outcome: Result<Int, any Error>) {
        guard !finished else { return }
        finished = true
        answered(outcome)
    }
}
