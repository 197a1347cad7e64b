import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// The bench's stand-in for Google's token endpoint and `walletobjects/v1`, HTTP/1.1 on loopback on an event loop group
/// of several threads (each connection lives on one), so that it takes more than the clients it measures send:
///
/// - `POST /token`: a JWT bearer grant whose assertion ``GoogleAssertionCheck`` accepts (once
///   ``GoogleStandInState/trust(_:)`` named the account); answers an access token.
/// - `POST /walletobjects/v1/{collection}`: inserts (409 when the id exists);
///   `GET` and `PATCH /walletobjects/v1/{collection}/{id}`: reads and merges (404 when missing).
///
/// Every API request must carry a token it issued (`Authorization: Bearer …`, else 401); a body must be a JSON object
/// whose `id` is a string under the issuer (and, for a patch, the id in the path). Collections are the Wallet API's
/// `…Class` and `…Object` ones.
final class GoogleStandIn: Sendable {
    let state: GoogleStandInState
    let port: Int
    let threads: Int
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    var url: String { "http://127.0.0.1:\(port)" }

    init(issuerID: String, threads: Int) throws {
        let state = GoogleStandInState(issuerID: issuerID)
        self.state = state
        self.threads = max(1, threads)
        group = MultiThreadedEventLoopGroup(numberOfThreads: self.threads)
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.backlog, value: 1024)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(StandInHandler(state: state))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
    }

    func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

/// Gathers one request's head and body, asks the state for the answer and writes it.
final class StandInHandler: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: used only on its connection's event loop.
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: GoogleStandInState
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(state: GoogleStandInState) { self.state = state }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(let chunk): body += chunk.readableBytesView
        case .end:
            guard let head else { return }
            self.head = nil
            let (status, answer) = state.answer(
                method: head.method, path: head.uri, authorization: head.headers.first(name: "authorization"), body: body)
            var headers = HTTPHeaders([("content-type", "application/json; charset=UTF-8"), ("content-length", String(answer.count))])
            if !head.isKeepAlive { headers.add(name: "connection", value: "close") }
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: status), headers: headers))),
                promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: answer)))), promise: nil)
            let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            if !head.isKeepAlive {
                let channel = context.channel
                done.whenComplete { _ in channel.close(promise: nil) }
            }
        }
    }
}
