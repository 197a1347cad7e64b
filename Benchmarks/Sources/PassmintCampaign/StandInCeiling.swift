import BenchSupport
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import PassmintTestSupport

/// What the APNs stand-in takes when nothing else limits it: a bare HTTP/2 client (SwiftNIO, no retries, no
/// outbox) on `connections` TLS connections, each on its own event loop, with `window` pushes in flight on each,
/// sending `count` pushes. Every answer must be 200: a refused push means the request was wrong, not fast. A push
/// not answered, a stream that cannot be opened or a connection the stand-in closes ends the run with an error that
/// names the connection, the push and what happened; nothing waits forever.
struct StandInCeiling {
    var tls: TLSConfiguration
    /// A provider token's `authorization` value; nil when the TLS configuration carries the client certificate.
    var authorization: String?
    var topic: String
    var connections: Int
    var window: Int
    /// How long one push may wait for its answer before the run ends with an error naming it.
    var answerTimeout: TimeAmount = .seconds(20)

    /// Pushes per second, from the first request to the last answer.
    func measure(against standIn: MockAPNsServer, count: Int) throws -> Double {
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
            let (window, answerTimeout) = (self.window, self.answerTimeout)
            channel.eventLoop.execute {
                do {
                    let multiplexer = try channel.pipeline.syncOperations.handler(type: HTTP2StreamMultiplexer.self)
                    for (lane, promise) in promises.enumerated() {
                        CeilingLane(
                            connection: index, lane: lane, multiplexer: multiplexer, head: head, tickets: tickets, done: promise,
                            tokenBase: (index * window + lane) * 10_000_000, answerTimeout: answerTimeout
                        ).next()
                    }
                } catch {
                    for promise in promises { promise.fail(CampaignError("connection \(index) to the stand-in has no HTTP/2: \(error)")) }
                }
            }
        }
        // Every lane ends: with its last answer, or with what failed (each push has `answerTimeout` to be answered), so
        // this wait is bounded; the first failure ends the measurement.
        let ended = try EventLoopFuture.whenAllComplete(lanes, on: group.next()).wait()
        let seconds = (ContinuousClock.now - start).seconds
        for case .failure(let error) in ended {
            let refused = standIn.refused
            throw CampaignError(
                "the stand-in's ceiling run failed: \(error)" + (refused.isEmpty ? "" : "; the stand-in refused \(refused)"))
        }
        return Double(count) / seconds
    }
}
