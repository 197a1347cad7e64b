public import Foundation
import Synchronization

/// Time for tests that moves only when told: what back-offs, leases and timestamps read, so that no test sleeps for
/// a second to pass. ``instant`` stands in for the continuous clock, ``date`` for the wall clock.
public final class ManualClock: Sendable {
    private let startInstant = ContinuousClock.now
    private let startDate: Date
    private let elapsed = Mutex(Duration.zero)

    /// A clock at `date` (by default the wall clock's now, in whole seconds, as HTTP dates are).
    public init(date: Date = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))) {
        startDate = date
    }

    /// Moves the clock forward.
    public func advance(by duration: Duration) { elapsed.withLock { $0 += duration } }

    public var instant: ContinuousClock.Instant { startInstant + elapsed.withLock { $0 } }

    public var date: Date {
        let (seconds, attoseconds) = elapsed.withLock { $0 }.components
        return startDate.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// ``instant``, as a function for the code under test.
    public var now: @Sendable () -> ContinuousClock.Instant { { self.instant } }

    /// ``date``, as a function for the code under test.
    public var today: @Sendable () -> Date { { self.date } }
}
