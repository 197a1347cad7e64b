import BenchSupport
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// One request of the bench's bare HTTP/1.1 client.
struct BenchRequest: Sendable {
    var method: HTTPMethod
    var path: String
    var headers: [(String, String)] = []
    var body: [UInt8] = []
}

/// What came back.
struct BenchResponse: Sendable {
    var status: Int
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A bare HTTP/1.1 client on SwiftNIO: `connections` keep-alive connections, each sending one request at a time, the
/// way an HTTP client's connection pool does. Nothing else in between: what it reaches is the server's ceiling at
/// that concurrency.
struct BenchHTTP: Sendable {
    let host: String
    let port: Int
    let group: MultiThreadedEventLoopGroup

    /// Runs jobs `0..<count` over `connections` connections; each job's requests go in order on one connection, and
    /// `check` sees their answers (throwing stops the run).
    func run(
        connections: Int, count: Int, requests: @escaping @Sendable (Int) -> [BenchRequest],
        check: @escaping @Sendable (Int, [BenchResponse]) throws -> Void
    ) async throws {
        let jobs = JobCounter()
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for _ in 0..<max(1, min(connections, count)) {
                tasks.addTask {
                    let channel = try await connect()
                    try await channel.executeThenClose { inbound, outbound in
                        var answers = inbound.makeAsyncIterator()
                        while true {
                            let job = jobs.next()
                            guard job < count else { return }
                            var responses: [BenchResponse] = []
                            for request in requests(job) {
                                try await send(request, outbound)
                                responses.append(try await receive(&answers))
                            }
                            try check(job, responses)
                        }
                    }
                }
            }
            try await tasks.waitForAll()
        }
    }

    /// One request on a connection of its own.
    func one(_ request: BenchRequest) async throws -> BenchResponse {
        let channel = try await connect()
        return try await channel.executeThenClose { inbound, outbound in
            var answers = inbound.makeAsyncIterator()
            try await send(request, outbound)
            return try await receive(&answers)
        }
    }

    private func connect() async throws -> NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart> {
        try await ClientBootstrap(group: group)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
    }

    private func send(_ request: BenchRequest, _ outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>) async throws {
        var headers = HTTPHeaders([("host", "\(host):\(port)"), ("content-length", String(request.body.count))])
        headers.add(contentsOf: request.headers)
        try await outbound.write(.head(HTTPRequestHead(version: .http1_1, method: request.method, uri: request.path, headers: headers)))
        if !request.body.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: request.body)))) }
        try await outbound.write(.end(nil))
    }

    private func receive(_ answers: inout NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator) async throws -> BenchResponse
    {
        var status = 0
        var body: [UInt8] = []
        while let part = try await answers.next() {
            switch part {
            case .head(let head): status = Int(head.status.code)
            case .body(let chunk): body += chunk.readableBytesView
            case .end: return BenchResponse(status: status, body: body)
            }
        }
        throw BenchError("\(host):\(port) closed the connection before answering")
    }
}

/// Hands out job numbers to the connections, each once.
final class JobCounter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}
