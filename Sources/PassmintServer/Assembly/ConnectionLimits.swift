/// What one client's connections may hold of the service, so that thousands of idle or slow connections (a slowloris
/// attack, or a load balancer that never closes) cannot keep it from answering everyone else.
public struct ConnectionLimits: Sendable, Equatable {
    /// How long a connection may take, from opening or from its previous answer, to send a whole request head; then it
    /// is closed. This is also how long an idle keep-alive connection stays open.
    public var headerTimeout: Duration = .seconds(30)
    /// How long a request's body may stall (no part of it arriving), or a connection stay without a request; then the
    /// connection is closed. Answers being written are not cut.
    public var idleTimeout: Duration = .seconds(60)
    /// How long a request's whole body may take to arrive, from the end of its head; then the connection is closed,
    /// however steadily the body trickles in (one byte every few seconds never trips ``idleTimeout``). A body being
    /// received counts as waiting when room must be made (the one that sent nothing for longest goes first).
    public var bodyTimeout: Duration = .seconds(60)
    /// How many connections may be open at once. A connection beyond it closes one that is waiting for its next
    /// request (the longest waiting of 64 sampled at random); when every connection is busy with a request, the new one
    /// is closed.
    public var maximumConnections = 10_000
    /// How many connections one client address may have open at once; beyond it a new one is closed at once. Trusted
    /// proxies (``ServerConfiguration/trustedProxies``), which carry every client's connections, have no such cap.
    public var maximumConnectionsPerAddress = 256

    public init() {}
}
