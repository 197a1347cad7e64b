import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Passmint
import Synchronization

/// One HTTP/2 stream of ``MockAPNsServer``: checks the request as APNs would, records it and answers it.
final class APNsStreamHandler: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: used only on its stream's event loop.
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let recorder: MockAPNsServer.Recorder
    private let providerTokens: ProviderTokenVerifier?
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(recorder: MockAPNsServer.Recorder, providerTokens: ProviderTokenVerifier?) {
        self.recorder = recorder
        self.providerTokens = providerTokens
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body(var chunk): body.writeBuffer(&chunk)
        case .end: respond(context: context)
        }
    }

    /// nil when APNs would take the request; else its status and reason. (A client without the right certificate
    /// never gets here: the TLS handshake refused it.)
    private func problem(_ head: HTTPRequestHead, token: Substring?) -> (status: Int, reason: String)? {
        if let providerTokens, let reason = providerTokens.problem(authorization: head.headers.first(name: "authorization")) {
            return (403, reason)
        }
        guard let token else { return (404, "BadPath") }
        if head.method != .POST { return (405, "MethodNotAllowed") }
        guard token.utf8.count == 64,
            token.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) })
        else { return (400, "BadDeviceToken") }
        guard let topic = head.headers.first(name: "apns-topic") else { return (400, "MissingTopic") }
        if let expected = recorder.topic, topic != expected { return (400, "TopicDisallowed") }
        if body.readableBytes == 0 { return (400, "PayloadEmpty") }
        guard (try? JSONParser.value(body.readableBytesView))?.objectValue != nil else { return (400, "BadPayload") }
        return nil
    }

    private func respond(context: ChannelHandlerContext) {
        guard let head else { return }
        self.head = nil
        let prefix = "/3/device/"
        let token = head.uri.hasPrefix(prefix) ? head.uri.dropFirst(prefix.count) : nil
        var answer = problem(head, token: token)
        var received: MockAPNsServer.Received?
        if answer == nil, let token {
            // The TLS handler sits on the connection; this handler on one of its HTTP/2 streams.
            let tls = try? context.channel.parent?.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)
            received = .init(
                token: String(token), topic: head.headers.first(name: "apns-topic"), pushType: head.headers.first(name: "apns-push-type"),
                body: String(decoding: body.readableBytesView, as: UTF8.self),
                clientCertificateSubject: tls?.peerCertificate.map { String(describing: $0) },
                authorization: head.headers.first(name: "authorization"), at: .now,
                connection: context.channel.parent.map { ObjectIdentifier($0) })
        }
        body.clear()
        let delay = recorder.state.withLock { state in
            if let received {
                state.received.append(received)
                let count = state.counts[received.token, default: 0]
                state.counts[received.token] = count + 1
                if let answers = state.behaviors[received.token]?.answers, !answers.isEmpty {
                    let configured = answers[min(count, answers.count - 1)]
                    if configured.status != 200 { answer = (configured.status, configured.reason ?? "") }
                }
            } else if let answer {
                state.refused[answer.reason, default: 0] += 1
            }
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            return state.delay
        }
        TestEvents.ring()  // a test waiting for this push (or for requests in flight) checks again
        guard delay > .zero else { return write(answer, context: context) }
        context.eventLoop.assumeIsolated().scheduleTask(in: delay) { self.write(answer, context: context) }
    }

    /// 200 with an `apns-id`, or the status with `{"reason": …}`.
    private func write(_ answer: (status: Int, reason: String)?, context: ChannelHandlerContext) {
        recorder.state.withLock { $0.inFlight -= 1 }
        TestEvents.ring()
        var headers = HTTPHeaders()
        headers.add(name: "apns-id", value: UUID().uuidString)
        var responseBody = ByteBuffer()
        if let answer, !answer.reason.isEmpty {
            headers.add(name: "content-type", value: "application/json")
            responseBody.writeString("{\"reason\":\"\(answer.reason)\"}")
        }
        headers.add(name: "content-length", value: String(responseBody.readableBytes))
        let status = HTTPResponseStatus(statusCode: answer?.status ?? 200)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http2, status: status, headers: headers))), promise: nil)
        if responseBody.readableBytes > 0 { context.write(wrapOutboundOut(.body(.byteBuffer(responseBody))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
