import NIOCore
import NIOHTTP1

/// What APNs answered one push: its status, headers and body (the first 16 KiB).
struct APNsAnswer: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: ByteBuffer
}

/// Why a push got no answer: below HTTP (no connection, no TLS, a stream that closed or did not answer in time).
struct APNsTransportError: Error, CustomStringConvertible {
    var description: String
    /// No answer came in time: the connection is not trusted again.
    var timedOut = false
    init(_ description: String, timedOut: Bool = false) {
        self.description = description
        self.timedOut = timedOut
    }
}

/// One push on one HTTP/2 stream: sends the request when the stream opens and fulfils `answer` with APNs's answer,
/// or with why none came.
final class APNsStreamHandler: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: used only on its stream's event loop.
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    /// The longest body kept; APNs's error bodies are a few dozen bytes.
    static let bodyLimit = 16 * 1024

    private let head: HTTPRequestHead
    private let body: ByteBuffer
    private let answer: EventLoopPromise<APNsAnswer>
    private var response: HTTPResponseHead?
    private var received = ByteBuffer()

    init(head: HTTPRequestHead, body: ByteBuffer, answer: EventLoopPromise<APNsAnswer>) {
        self.head = head
        self.body = body
        self.answer = answer
    }

    func channelActive(context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): response = head
        case .body(var part):
            let room = max(0, Self.bodyLimit - received.readableBytes)
            if let kept = part.readSlice(length: min(room, part.readableBytes)) { received.writeImmutableBuffer(kept) }
        // Not closed here: both ends have ended the stream, so it closes by itself. Closing it would send APNs a
        // RST_STREAM for every push, and servers drop connections that reset many streams (rapid-reset defences).
        case .end:
            guard let response else { return answer.fail(APNsTransportError("APNs ended the stream without an answer")) }
            answer.succeed(APNsAnswer(status: Int(response.status.code), headers: response.headers, body: received))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        answer.fail(APNsTransportError("the stream closed before APNs answered (the connection closed)"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        answer.fail(APNsTransportError("the stream failed: \(error)"))
        context.close(promise: nil)
    }
}
