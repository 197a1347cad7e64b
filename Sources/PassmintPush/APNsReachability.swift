/// Whether APNs can be reached, shared by every push of one sender, so that an unreachable APNs (a DNS failure, a
/// refused connection, a TLS handshake that hangs) costs one connection attempt, not one for each push and retry.
///
/// The first push after start-up, or after a failure's back-off, is the *probe*: the pushes beside it wait for its
/// outcome instead of each opening a connection. Any HTTP answer means APNs is reachable; a transport failure marks it
/// unreachable for a back-off (1 s, doubling to 60 s), during which pushes fail at once and go back to the push
/// queue, which tries them again later.
actor APNsReachability {
    enum Admission: Equatable {
        /// Go ahead and send.
        case proceed
        /// Do not try: APNs failed a moment ago, for the reason given.
        case refuse(String)
    }

    private enum State {
        /// Nothing known yet, or a back-off is over: the next push probes.
        case unknown
        case probing
        case reachable
        case unreachable(until: ContinuousClock.Instant, reason: String)
    }

    private var state = State.unknown
    private var failures = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private let firstBackOff: Duration
    private let longestBackOff: Duration
    /// The time back-offs are measured in: the continuous clock, or a test's, which moves only when told.
    private let now: @Sendable () -> ContinuousClock.Instant

    init(
        firstBackOff: Duration = .seconds(1), longestBackOff: Duration = .seconds(60),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.firstBackOff = firstBackOff
        self.longestBackOff = longestBackOff
        self.now = now
    }

    /// Whether a push may be sent now; waits while another push probes.
    func admit() async -> Admission {
        while true {
            switch state {
            case .reachable:
                return .proceed
            case .unknown:
                state = .probing
                return .proceed
            case .probing:
                await withCheckedContinuation { waiters.append($0) }
            case .unreachable(let until, let reason):
                guard now() >= until else { return .refuse(reason) }
                state = .probing
                return .proceed
            }
        }
    }

    /// APNs answered (any HTTP status).
    func answered() {
        failures = 0
        state = .reachable
        wakeWaiters()
    }

    /// The push failed below HTTP: no connection, no TLS, or the connection broke.
    func failed(_ error: String) {
        failures += 1
        let backOff = min(firstBackOff * (1 << min(failures - 1, 16)), longestBackOff)
        state = .unreachable(until: now() + backOff, reason: "APNs unreachable (\(error)); the push is tried again later")
        wakeWaiters()
    }

    /// A push was cancelled before it learnt anything: the next push probes.
    func abandoned() {
        if case .probing = state { state = .unknown }
        wakeWaiters()
    }

    private func wakeWaiters() {
        let woken = waiters
        waiters = []
        for waiter in woken { waiter.resume() }
    }
}
