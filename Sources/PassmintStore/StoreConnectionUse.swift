import Synchronization

/// How a store's connection pool is used (``PassStore/connectionUse``): counted by the store's calls into the pool as
/// they wait for, hold and return connections, and read at scrape time by `/metrics`.
public final class StoreConnectionUse: Sendable {
    /// The most connections the pool opens.
    public let maximum: Int
    private let waitingCount = Atomic<Int>(0)
    private let inUseCount = Atomic<Int>(0)
    private let leaseCount = Atomic<Int>(0)
    private let waitedNanoseconds = Atomic<Int>(0)

    package init(maximum: Int) { self.maximum = maximum }

    /// Calls waiting for a connection now.
    public var waiting: Int { waitingCount.load(ordering: .relaxed) }
    /// Connections a call holds now.
    public var inUse: Int { inUseCount.load(ordering: .relaxed) }
    /// Connections lent so far.
    public var leases: Int { leaseCount.load(ordering: .relaxed) }
    /// The seconds the calls waited for the connections lent, in all.
    public var waitedSeconds: Double { Double(waitedNanoseconds.load(ordering: .relaxed)) / 1e9 }

    /// A call starts (`+1`) or stops (`-1`) waiting for a connection.
    package func waiting(_ change: Int) { waitingCount.add(change, ordering: .relaxed) }
    /// A call takes (`+1`) or returns (`-1`) a connection.
    package func inUse(_ change: Int) { inUseCount.add(change, ordering: .relaxed) }
    /// A waiting call was lent a connection after `waited`.
    package func leased(after waited: Duration) {
        waitingCount.subtract(1, ordering: .relaxed)
        inUseCount.add(1, ordering: .relaxed)
        leaseCount.add(1, ordering: .relaxed)
        waitedNanoseconds.add(
            Int(waited.components.seconds) * 1_000_000_000 + Int(waited.components.attoseconds / 1_000_000_000), ordering: .relaxed)
    }
}
