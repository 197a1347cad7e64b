import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// One loop's share of a destination's connections and the requests waiting for one, all on that event loop (nothing
/// here but ``outstanding`` is touched from another thread: every entry point hops to ``loop`` first).
final class DestinationPool: @unchecked Sendable {
    let destination: Destination
    /// Its ``KeepAliveHTTPClient/Configuration/connectionsPerDestination`` is this sub-pool's share.
    let configuration: KeepAliveHTTPClient.Configuration
    let tls: NIOSSLContext?
    let loop: any EventLoop
    /// Requests given to this pool and not yet answered (kept by the client, which picks the least busy sub-pool).
    let outstanding = Atomic<Int>(0)

    private var connections: [PipelinedConnection] = []
    private var connecting = 0
    private var waiting = CircularBuffer<PendingRequest>()
    private var closed = false

    init(destination: Destination, configuration: KeepAliveHTTPClient.Configuration, tls: NIOSSLContext?, loop: any EventLoop) {
        self.destination = destination
        self.configuration = configuration
        self.tls = tls
        self.loop = loop
    }

    /// Sends `parts` (in one hop to the loop), each answered or failed by `deadline`; the results in order.
    func send(_ parts: [RequestParts], deadline: NIODeadline, timeout: Duration) -> EventLoopFuture<
        [Result<KeepAliveHTTPClient.Response, KeepAliveHTTPError>]
    > {
        let promise = loop.makePromise(of: [Result<KeepAliveHTTPClient.Response, KeepAliveHTTPError>].self)
        loop.execute {
            let batch = PendingBatch(count: parts.count, promise: promise)
            let requests = parts.enumerated().map { PendingRequest(batch: batch, index: $0.offset, parts: $0.element) }
            guard !self.closed else {
                for request in requests { request.fail(KeepAliveHTTPError(.shutDown, "the HTTP client is shut down")) }
                return
            }
            batch.timeout = self.loop.scheduleTask(deadline: deadline) {
                self.timeOut(requests, after: timeout)
            }
            for request in requests { self.waiting.append(request) }
            self.dispatch()
        }
        return promise.futureResult
    }

    /// Gives waiting requests to connections: an idle one first, else a new connection while the pool has room, else
    /// the least busy one below the pipeline depth; flushes each connection written to once.
    func dispatch() {
        var written: [PipelinedConnection] = []
        while let request = waiting.first {
            if request.isDone {
                waiting.removeFirst()
                continue
            }
            var idle: PipelinedConnection?
            var least: PipelinedConnection?
            for connection in connections where !connection.closing {
                let load = connection.inFlight
                if load == 0 {
                    idle = connection
                    break
                }
                if load < configuration.pipelineDepth, load < least?.inFlight ?? .max { least = connection }
            }
            if idle == nil, connections.count + connecting < configuration.connectionsPerDestination, connecting < waiting.count {
                connect()
                continue
            }
            guard let connection = idle ?? least else { break }
            waiting.removeFirst()
            connection.write(request)
            if !written.contains(where: { $0 === connection }) { written.append(connection) }
        }
        for connection in written { connection.flush() }
    }

    private func connect() {
        connecting += 1
        let connection = PipelinedConnection(pool: self, maxBodyBytes: configuration.maxBodyBytes)
        let bound = NIOLoopBound(connection, eventLoop: loop)
        let tls = self.tls
        let name = destination.host
        let serverName = (try? SocketAddress(ipAddress: name, port: 0)) == nil ? name : nil
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(TimeAmount(configuration.connectTimeout))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                do {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverName))
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(bound.value)
                    return channel.eventLoop.makeSucceededVoidFuture()
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
        bootstrap.connect(host: destination.address ?? destination.host, port: destination.port).whenComplete { result in
            self.connecting -= 1
            switch result {
            case .success:
                let connection = bound.value
                if self.closed {
                    connection.close()
                } else if !connection.closing {
                    self.connections.append(connection)
                }
                self.dispatch()
            case .failure(let error):
                let failure = KeepAliveHTTPError(.connect, "cannot connect to \(self.destination.description): \(error)")
                // No open connection takes the waiting requests: they fail now rather than at their timeout (and no
                // new attempt is made for them, which against a refusing host would go round until the deadline).
                if self.connections.allSatisfy(\.closing) {
                    while let request = self.waiting.popFirst() { request.fail(failure) }
                }
            }
        }
    }

    /// A connection answered a request: it may take another.
    func answered(_ connection: PipelinedConnection) {
        if !waiting.isEmpty { dispatch() }
    }

    /// A connection closed; `unsent` were behind an answer carrying `Connection: close` (not acted on) and wait again,
    /// first.
    func closed(_ connection: PipelinedConnection, unsent: [PendingRequest]) {
        connections.removeAll { $0 === connection }
        for request in unsent.reversed() where !request.isDone { waiting.prepend(request) }
        if closed {
            while let request = waiting.popFirst() { request.fail(KeepAliveHTTPError(.shutDown, "the HTTP client is shut down")) }
        } else if !waiting.isEmpty {
            dispatch()
        }
    }

    /// The batch's deadline passed: each request not yet answered fails, and a connection holding one closes (the
    /// answers behind it would no longer match).
    private func timeOut(_ requests: [PendingRequest], after timeout: Duration) {
        var stuck: [PipelinedConnection] = []
        for request in requests where !request.isDone {
            if let connection = request.connection, !stuck.contains(where: { $0 === connection }) { stuck.append(connection) }
            request.fail(KeepAliveHTTPError(.timedOut, "\(destination.description) did not answer within \(timeout)"))
        }
        for connection in stuck { connection.close() }
    }

    /// Closes every connection and fails what waits; later sends fail.
    func close() async {
        try? await closeSoon().get()
    }

    /// ``close()`` without waiting for it.
    @discardableResult
    func closeSoon() -> EventLoopFuture<Void> {
        loop.flatSubmit {
            self.closed = true
            while let request = self.waiting.popFirst() { request.fail(KeepAliveHTTPError(.shutDown, "the HTTP client is shut down")) }
            let closing = self.connections.map { $0.close() }
            return EventLoopFuture.andAllComplete(closing, on: self.loop)
        }
    }
}

/// The requests of one ``DestinationPool/send(_:deadline:timeout:)``, answered together; on the pool's loop only.
final class PendingBatch: @unchecked Sendable {
    private var results: [Result<KeepAliveHTTPClient.Response, KeepAliveHTTPError>?]
    private var remaining: Int
    private let promise: EventLoopPromise<[Result<KeepAliveHTTPClient.Response, KeepAliveHTTPError>]>
    var timeout: Scheduled<Void>?

    init(count: Int, promise: EventLoopPromise<[Result<KeepAliveHTTPClient.Response, KeepAliveHTTPError>]>) {
        results = Array(repeating: nil, count: count)
        remaining = count
        self.promise = promise
        if count == 0 { promise.succeed([]) }
    }

    func complete(_ index: Int, _ result: Result<KeepAliveHTTPClient.Response, KeepAliveHTTPError>) {
        guard results[index] == nil else { return }
        results[index] = result
        remaining -= 1
        guard remaining == 0 else { return }
        timeout?.cancel()
        promise.succeed(results.map { $0! })
    }
}

/// One request of a batch: waiting, on a connection, or done (answered or failed, exactly once); on the pool's loop
/// only.
final class PendingRequest: @unchecked Sendable {
    let batch: PendingBatch
    let index: Int
    let parts: RequestParts
    /// The connection it was written on, while it is out.
    var connection: PipelinedConnection?
    private(set) var isDone = false

    init(batch: PendingBatch, index: Int, parts: RequestParts) {
        self.batch = batch
        self.index = index
        self.parts = parts
    }

    func succeed(_ response: KeepAliveHTTPClient.Response) { finish(.success(response)) }
    func fail(_ error: KeepAliveHTTPError) { finish(.failure(error)) }

    private func finish(_ result: Result<KeepAliveHTTPClient.Response, KeepAliveHTTPError>) {
        guard !isDone else { return }
        isDone = true
        connection = nil
        batch.complete(index, result)
    }
}
