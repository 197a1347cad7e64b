/// How a store's connection pool is used at one moment (``PassStore/connectionUse``), as `/metrics` shows it.
public struct StoreConnectionUse: Sendable {
    /// The most connections the pool opens.
    public var maximum: Int
    /// Calls waiting for a connection.
    public var waiting: Int
    /// Connections a call holds.
    public var inUse: Int
    /// Connections lent so far.
    public var leases: Int
    /// The seconds the calls waited for the connections lent, in all.
    public var waitedSeconds: Double

    public init(maximum: Int, waiting: Int, inUse: Int, leases: Int, waitedSeconds: Double) {
        self.maximum = maximum
        self.waiting = waiting
        self.inUse = inUse
        self.leases = leases
        self.waitedSeconds = waitedSeconds
    }
}
