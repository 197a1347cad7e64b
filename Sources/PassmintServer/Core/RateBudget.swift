/// A token bucket: `rate` tokens a second, up to `burst` saved. Not thread-safe; its owner locks it.
struct RateBudget: Sendable {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var refilled: ContinuousClock.Instant

    init(rate: Double, burst: Double, now: ContinuousClock.Instant = .now) {
        self.rate = rate
        self.burst = burst
        tokens = burst
        refilled = now
    }

    /// How many of `count` the budget allows at `now`; those are spent.
    mutating func take(_ count: Int, now: ContinuousClock.Instant) -> Int {
        refill(now)
        let taken = min(count, Int(tokens))
        tokens -= Double(taken)
        return taken
    }

    /// Gives back `count` taken tokens (another budget refused what they were taken for).
    mutating func giveBack(_ count: Int) { tokens = min(burst, tokens + Double(count)) }

    /// True when the budget has refilled completely by `now`: forgetting it changes nothing.
    func isFull(at now: ContinuousClock.Instant) -> Bool {
        var copy = self
        copy.refill(now)
        return copy.tokens >= burst
    }

    private mutating func refill(_ now: ContinuousClock.Instant) {
        let elapsed = now - refilled
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        tokens = min(burst, tokens + rate * max(0, seconds))
        refilled = now
    }
}
