import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP/1.1 server on a free loopback port that reads pipelined requests one after another on each connection
/// and does what `script` says with each (given its number in arrival order across all connections, and its path):
/// answer it (echoing its path as the body), answer it and close (`Connection: close`), close without answering, or
/// never answer. It
/// counts the connections it accepts and records each request it answered (its path and `Host` headers).
final class ScriptedHTTPServer: Sendable {
    enum Action: Sendable {
        case answer(status: Int = 200, bodyBytes: Int? = nil)
        case answerAndClose
        case closeWithoutAnswer
        case withhold
    }

    struct State {
        var connections = 0
        var requests = 0
        /// The path of each request answered, with the connection (1, 2…) it came on.
        var answered: [(path: String, connection: Int)] = []
        /// The `Host` headers of each request answered, in order.
        var hosts: [[String]] = []
    }

    final class Recorder: Sendable {
        let state = Mutex(State())
    }

    private let recorder = Recorder()
    private let channel: any Channel
    let port: Int

    init(script: @escaping @Sendable (_ request: Int, _ path: String) -> Action) async throws {
        let state = recorder
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let connection = state.state.withLock { state in
                    state.connections += 1
                    return state.connections
                }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withPipeliningAssistance: false)
                    try channel.pipeline.syncOperations.addHandler(Handler(connection: connection, state: state, script: script))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    var url: String { "http://127.0.0.1:\(port)" }
    var connections: Int { recorder.state.withLock { $0.connections } }
    var answered: [(path: String, connection: Int)] { recorder.state.withLock { $0.answered } }
    var hosts: [[String]] { recorder.state.withLock { $0.hosts } }

    func shutdown() async { try? await channel.close() }

    private final class Handler: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let connection: Int
        let state: Recorder
        let script: @Sendable (Int, String) -> Action
        /// Closing: the requests read behind are not acted on.
        let closing = Mutex(false)

        init(connection: Int, state: Recorder, script: @escaping @Sendable (Int, String) -> Action) {
            self.connection = connection
            self.state = state
            self.script = script
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .head(let head) = unwrapInboundIn(data), !closing.withLock({ $0 }) else { return }
            let index = state.state.withLock { state in
                state.requests += 1
                return state.requests
            }
            let close: Bool
            var status = 200
            var body = head.uri
            switch script(index, head.uri) {
            case .withhold: return
            case .closeWithoutAnswer:
                closing.withLock { $0 = true }
                context.close(promise: nil)
                return
            case .answer(let code, let size):
                status = code
                if let size { body = String(repeating: "x", count: size) }
                close = false
            case .answerAndClose:
                closing.withLock { $0 = true }
                close = true
            }
            state.state.withLock {
                $0.answered.append((head.uri, connection))
                $0.hosts.append(head.headers["Host"])
            }
            var headers = HTTPHeaders([("Content-Length", "\(body.utf8.count)")])
            if close { headers.add(name: "Connection", value: "close") }
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: status), headers: headers))),
                promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in if close { bound.value.close(promise: nil) } }
        }
    }
}
