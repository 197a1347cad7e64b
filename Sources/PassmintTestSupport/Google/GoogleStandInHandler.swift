import NIOCore
import NIOHTTP1

/// One whole request as the Google stand-in reads it.
struct StandInRequest: Sendable {
    var method: String
    var path: String
    var headers: HTTPHeaders
    var body: [UInt8]
}

/// The stand-in's answer to one request.
struct StandInAnswer: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body: String
    /// No answer at all: the request stays in flight until the client gives up or dies (kill -9 tests).
    var withheld = false
}

/// Gathers an HTTP/1.1 request's head and body, asks the stand-in for the answer and writes it.
final class GoogleStandInHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let answer: @Sendable (StandInRequest) -> StandInAnswer?
    /// Told +1 when a client connects and -1 when its connection ends.
    private let connected: @Sendable (Int) -> Void
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(answer: @escaping @Sendable (StandInRequest) -> StandInAnswer?, connected: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.answer = answer
        self.connected = connected
    }

    func channelActive(context: ChannelHandlerContext) {
        connected(1)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        connected(-1)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(let chunk): body.append(contentsOf: chunk.readableBytesView)
        case .end:
            guard let head else { return }
            let request = StandInRequest(
                method: head.method.rawValue, path: head.uri, headers: head.headers, body: body)
            let reply = answer(request) ?? StandInAnswer(status: 503, body: "{}")
            self.head = nil
            if reply.withheld { return }
            write(reply, keepAlive: head.isKeepAlive, context: context)
        }
    }

    private func write(_ reply: StandInAnswer, keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/json; charset=UTF-8")
        for (name, value) in reply.headers { headers.add(name: name, value: value) }
        let bytes = Array(reply.body.utf8)
        headers.add(name: "content-length", value: String(bytes.count))
        if !keepAlive { headers.add(name: "connection", value: "close") }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: reply.status), headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
