public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
public import Passmint
import Synchronization

/// A local HTTP server that receives webhook deliveries, for tests: it keeps every request (its event id, signature
/// header and body bytes as received), checks each signature with ``WebhookSignature/verify(payload:header:secret:tolerance:now:)``
/// under `secret` at `now`, and answers the statuses queued with ``answerNext(_:)`` before answering 200. It counts
/// an event id it has already acknowledged as a duplicate, as a receiver deduping by `Passmint-Event-Id` would.
/// Listens on a free loopback port and counts the connections it accepts. Each request rings ``TestEvents``.
public final class WebhookReceiver: Sendable {
    /// One request received.
    public struct Received: Sendable, Equatable {
        public var eventId: String
        public var signature: String
        public var contentType: String
        public var body: [UInt8]
        /// What `WebhookSignature.verify` said: nil when it accepted the signature.
        public var signatureProblem: String?
        /// The status it was answered with.
        public var status: Int

        /// The body as JSON.
        public var json: JSONObject { (try? JSONParser.value(body).objectValue) ?? JSONObject() }
    }

    private struct State {
        var received: [Received] = []
        var statuses: [Int] = []
        var acknowledged: [String] = []
        var duplicates = 0
        var withholding = false
        var connections = 0
    }

    private let state = Mutex(State())
    private let secret: String
    private let now: @Sendable () -> Date
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    public let port: Int

    /// Binds port 0 on 127.0.0.1 (a blocking bind: create it off the cooperative pool or in a test's set-up).
    public init(secret: String, now: @escaping @Sendable () -> Date) throws {
        self.secret = secret
        self.now = now
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let box = ReceiverReference()
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                box.receiver?.state.withLock { $0.connections += 1 }
                return channel.pipeline.configureHTTPServerPipeline().flatMapThrowing {
                    try channel.pipeline.syncOperations.addHandler(
                        GoogleStandInHandler(answer: { request in box.receiver?.answer(request) }))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
        box.set(self)
    }

    /// The URL to register (`http://127.0.0.1:<port>/hooks`).
    public var url: String { "http://127.0.0.1:\(port)/hooks" }

    /// How many TCP connections it has accepted: a sender that keeps its connections alive opens few.
    public var connections: Int { state.withLock { $0.connections } }

    /// Every request received, in order.
    public var received: [Received] { state.withLock { $0.received } }

    /// Requests whose event id had been acknowledged before (dropped by a deduping receiver).
    public var duplicates: Int { state.withLock { $0.duplicates } }

    /// The event ids acknowledged (2xx), each once, in order.
    public var acknowledged: [String] { state.withLock { $0.acknowledged } }

    /// Answers the next requests with these statuses, one each, then 200 again.
    public func answerNext(_ statuses: [Int]) { state.withLock { $0.statuses.append(contentsOf: statuses) } }

    /// While on, requests are recorded (status 0) and never answered: they stay in flight at the sender.
    public func withholdAnswers(_ on: Bool) { state.withLock { $0.withholding = on } }

    func answer(_ request: StandInRequest) -> StandInAnswer {
        let signature = request.headers.first(name: WebhookSignature.headerName) ?? ""
        var problem: String?
        do {
            try WebhookSignature.verify(payload: request.body, header: signature, secret: secret, now: now())
        } catch {
            problem = error.description
        }
        let eventId = request.headers.first(name: "Passmint-Event-Id") ?? ""
        defer { TestEvents.ring() }  // a test waiting for this delivery checks again
        return state.withLock { state in
            let withheld = state.withholding
            let status = withheld ? 0 : state.statuses.isEmpty ? 200 : state.statuses.removeFirst()
            state.received.append(
                Received(
                    eventId: eventId, signature: signature, contentType: request.headers.first(name: "content-type") ?? "",
                    body: request.body, signatureProblem: problem, status: status))
            if (200..<300).contains(status) {
                if state.acknowledged.contains(eventId) { state.duplicates += 1 } else { state.acknowledged.append(eventId) }
            }
            return StandInAnswer(status: status, body: "{}", withheld: withheld)
        }
    }

    public func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

/// The handlers reach the receiver through this box, set once the server is bound.
private final class ReceiverReference: Sendable {
    private let reference = Mutex<WebhookReceiver?>(nil)
    var receiver: WebhookReceiver? { reference.withLock { $0 } }
    func set(_ receiver: WebhookReceiver?) { reference.withLock { $0 = receiver } }
}
