import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// The service's HTTP/1.1 connections: Hummingbird's `HTTP1Channel` pipeline (NIO's HTTP/1 decoder and encoder, the
/// conversion to HTTPTypes, the idle timeout, the router), with the service's own handlers (``ConnectionGuard``, then
/// ``DeviceFastPath`` when asked for) placed right after the decoder, before the conversion: the fast path reads NIO's
/// request head and writes a response head the encoder takes as it is, so the answers devices repeat most build no
/// HTTPTypes request or response at all.
struct ServiceHTTPChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    /// The service's handlers of one connection, in pipeline order.
    let handlers: @Sendable () -> [any RemovableChannelHandler]
    let idleTimeout: Duration?

    /// The server to give `Application`.
    static func server(idleTimeout: Duration?, handlers: @escaping @Sendable () -> [any RemovableChannelHandler]) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in ServiceHTTPChannel(responder: responder, handlers: handlers, idleTimeout: idleTimeout) }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            // Hummingbird's decoder limits and settings (HTTP1Channel's): pipelining is ordered by the async channel,
            // errors are answered by the application, HTTPTypes has validated the outbound fields.
            let decoder = HTTP1Channel.Configuration.DecoderConfiguration()
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = decoder.maxHeaderFieldSize
            limits.maxHeaderListSize = decoder.maxHeaderListSize
            limits.maxHeaderFieldCount = decoder.maxHeaderFieldCount
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits)
            try pipeline.addHandlers(handlers())
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}
