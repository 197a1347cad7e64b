public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
public import Passmint
import Synchronization

/// A local HTTP server that answers like Google's OAuth token endpoint (`POST /token`) and the Wallet REST API
/// (`/walletobjects/v1/<collection>[/<id>]`), for the tests and the Google benchmark. It verifies each JWT-bearer assertion with
/// ``GoogleAssertionVerifier``, requires a bearer token it issued (and that has not expired) on every API call,
/// checks every class and object body against Google's discovery document (400 for an unknown property, a wrong
/// type or a value outside an enum), keeps classes and objects in memory (insert: 409 when the id exists; get and
/// patch: 404 when it does not; an object's `classId` must name a stored class), and answers faults on demand
/// (429 with `Retry-After`, 5xx). With an image prefix, images must be served under it. Listens on a free loopback port,
/// on an event loop group of `threads` threads (each connection lives on one of them): one for a test, several for the
/// benchmark, which must take more than the clients it measures send.
public final class GoogleWalletStandIn: Sendable {
    /// One request the stand-in received.
    public struct Received: Sendable, Equatable {
        public var method: String
        public var path: String
        public var body: String
        /// The status it was answered with.
        public var status: Int
        /// When it was answered.
        public var at: ContinuousClock.Instant
    }

    /// A fault answered instead of the real answer.
    public struct Fault: Sendable {
        public var status: Int
        public var retryAfter: String?
        public init(status: Int, retryAfter: String? = nil) {
            self.status = status
            self.retryAfter = retryAfter
        }
    }

    struct State {
        var received: [Received] = []
        /// Stored resources by collection (`loyaltyClass`) and id.
        var resources: [String: [String: JSONObject]] = [:]
        var tokens: [String: Date] = [:]
        var issuedTokens = 0
        var faults: [Fault] = []
        var tokenFaults: [Fault] = []
        /// Seconds each insert or patch takes before it is answered (a slow Google, so a test can act mid-way).
        var writeDelay: Double = 0
        var openConnections = 0
    }

    let state = Mutex(State())
    let discovery: DiscoveryDocument
    let verifier: GoogleAssertionVerifier
    let issuerID: String
    /// When set, every image a class or object names must be at an absolute `https` address starting with this (the
    /// service's public URL), as Google fetches images from the internet.
    let imagePrefix: String?
    let now: @Sendable () -> Date
    /// Seconds an access token lives (Google: 3599).
    public let tokenLifetime: Int
    /// Threads of its event loop group.
    public let threads: Int
    private let box: StandInReference
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    public let port: Int

    public init(
        account: TestServiceAccount, issuerID: String, discovery: DiscoveryDocument? = nil, tokenLifetime: Int = 3599,
        imagePrefix: String? = nil, now: @escaping @Sendable () -> Date = { Date() }, threads: Int = 1
    ) throws {
        self.imagePrefix = imagePrefix
        self.discovery = try discovery ?? DiscoveryDocument()
        verifier = try GoogleAssertionVerifier(account: account)
        self.issuerID = issuerID
        self.now = now
        self.tokenLifetime = tokenLifetime
        self.threads = max(1, threads)
        group = MultiThreadedEventLoopGroup(numberOfThreads: self.threads)
        let box = StandInReference()
        self.box = box
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.backlog, value: 1024)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMapThrowing {
                    try channel.pipeline.syncOperations.addHandler(
                        GoogleStandInHandler(answer: { box.standIn?.answer($0) }, connected: { box.standIn?.connectionsChanged(by: $0) }))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
        box.set(self)
    }

    /// The base URL to give a Wallet API client (`--google-api-url`).
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The token endpoint (a key file's `token_uri`).
    public var tokenURL: URL { url.appendingPathComponent("token") }

    /// Every request received, in order.
    public var received: [Received] { state.withLock { $0.received } }

    /// Forgets the requests received so far (what is stored and the tokens issued stay).
    public func forgetReceived() { state.withLock { $0.received = [] } }

    /// Requests to the Wallet API (not the token endpoint) with `method`, e.g. `PATCH`.
    public func count(_ method: String) -> Int {
        state.withLock { $0.received.filter { $0.method == method && $0.path.hasPrefix("/walletobjects/") }.count }
    }

    /// An access token, as the token endpoint issues one (for a client that measures the API alone).
    public func issueToken() -> String {
        state.withLock { state in
            state.issuedTokens += 1
            let token = "ya29.stand-in-\(state.issuedTokens)"
            state.tokens[token] = now().addingTimeInterval(Double(tokenLifetime))
            return token
        }
    }

    /// How many access tokens the token endpoint issued.
    public var issuedTokens: Int { state.withLock { $0.issuedTokens } }

    /// The stored class or object.
    public func stored(_ collection: String, id: String) -> JSONObject? { state.withLock { $0.resources[collection]?[id] } }

    /// Answers the next API requests with these faults, one each, before answering normally again.
    public func failNext(_ faults: [Fault]) { state.withLock { $0.faults.append(contentsOf: faults) } }

    /// Answers the next token requests with these faults.
    public func failNextTokens(_ faults: [Fault]) { state.withLock { $0.tokenFaults.append(contentsOf: faults) } }

    /// Makes each insert and patch take `seconds` (answered in order, one at a time), like a slow Google.
    public func delayWrites(_ seconds: Double) { state.withLock { $0.writeDelay = seconds } }

    /// The objects and classes that were patched (answered 200), with how many times each.
    public var patchCounts: [String: Int] {
        state.withLock { state in
            Dictionary(state.received.filter { $0.method == "PATCH" && $0.status == 200 }.map { ($0.path, 1) }, uniquingKeysWith: +)
        }
    }

    /// Clients connected now. A killed client's connections end once the stand-in has read and answered what it had
    /// sent (requests already on the wire are carried out, as Google's would be).
    public var openConnections: Int { state.withLock { $0.openConnections } }

    func connectionsChanged(by change: Int) {
        state.withLock { $0.openConnections += change }
        TestEvents.ring()  // a test waiting for the connections to end checks again
    }

    /// Every stored object of a collection (`loyaltyObject`), by id.
    public func storedAll(_ collection: String) -> [String: JSONObject] { state.withLock { $0.resources[collection] ?? [:] } }

    /// Forgets every token issued (as when Google revokes them): the next API call gets 401.
    public func revokeTokens() { state.withLock { $0.tokens = [:] } }

    public func shutdown() {
        box.set(nil)
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

/// The handlers reach the stand-in through this box: set once the server is bound, emptied at shutdown.
final class StandInReference: Sendable {
    private let reference = Mutex<GoogleWalletStandIn?>(nil)
    var standIn: GoogleWalletStandIn? { reference.withLock { $0 } }
    func set(_ standIn: GoogleWalletStandIn?) { reference.withLock { $0 = standIn } }
}
