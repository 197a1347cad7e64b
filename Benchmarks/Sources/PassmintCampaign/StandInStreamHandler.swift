import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Passmint
import Synchronization

/// One HTTP/2 stream of the APNs stand-in: checks the request as APNs would and answers it.
final class StandInStreamHandler: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: used only on its stream's event loop.
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let recorder: APNsStandIn.Recorder
    private let tokens: StandInTokenCheck?
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(recorder: APNsStandIn.Recorder, tokens: StandInTokenCheck?) {
        self.recorder = recorder
        self.tokens = tokens
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body(var chunk): body.writeBuffer(&chunk)
        case .end: respond(context: context)
        }
    }

    /// nil when APNs would take the request; else its status and reason.
    private func problem(_ head: HTTPRequestHead, token: Substring, context: ChannelHandlerContext) -> (Int, String)? {
        if let tokens {
            if let reason = tokens.problem(authorization: head.headers.first(name: "authorization")) { return (403, reason) }
        } else {
            // The TLS handler verified the chain during the handshake; a connection without a certificate gets here only
            // if verification was off.
            let tls = try? context.channel.parent?.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)
            if tls?.peerCertificate == nil { return (403, "MissingProviderToken") }
        }
        if head.method != .POST { return (405, "MethodNotAllowed") }
        guard token.count == 64,
            token.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) })
        else {
            return (400, "BadDeviceToken")
        }
        guard let topic = head.headers.first(name: "apns-topic") else { return (400, "MissingTopic") }
        if topic != recorder.topic { return (400, "TopicDisallowed") }
        if body.readableBytes == 0 { return (400, "PayloadEmpty") }
        guard (try? JSONParser.value(body.readableBytesView))?.objectValue != nil else { return (400, "BadPayload") }
        return nil
    }

    private func respond(context: ChannelHandlerContext) {
        guard let head else { return }
        self.head = nil
        let prefix = "/3/device/"
        let token = head.uri.hasPrefix(prefix) ? head.uri.dropFirst(prefix.count) : ""
        let refusal: (Int, String)?
        if head.uri.hasPrefix(prefix) {
            refusal = problem(head, token: token, context: context)
        } else {
            refusal = (404, "BadPath")
        }
        body.clear()
        let delay = recorder.state.withLock { state in
            if let refusal {
                state.refused[refusal.1, default: 0] += 1
            } else {
                state.received.append(.init(token: String(token), at: .now))
            }
            state.inFlight += 1
            return state.delay
        }
        guard delay > .zero else { return answer(context: context, refusal: refusal) }
        context.eventLoop.assumeIsolated().scheduleTask(in: delay) { self.answer(context: context, refusal: refusal) }
    }

    private func answer(context: ChannelHandlerContext, refusal: (Int, String)?) {
        recorder.state.withLock { $0.inFlight -= 1 }
        var headers = HTTPHeaders()
        headers.add(name: "apns-id", value: UUID().uuidString)
        var responseBody = ByteBuffer()
        if let refusal {
            headers.add(name: "content-type", value: "application/json")
            responseBody.writeString("{\"reason\":\"\(refusal.1)\"}")
        }
        headers.add(name: "content-length", value: String(responseBody.readableBytes))
        let status = HTTPResponseStatus(statusCode: refusal?.0 ?? 200)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http2, status: status, headers: headers))), promise: nil)
        if responseBody.readableBytes > 0 { context.write(wrapOutboundOut(.body(.byteBuffer(responseBody))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
