/// The serial numbers a device should fetch, and the tag to send next time.
public struct UpdatedSerials: Sendable, Equatable {
    public var serialNumbers: [String]
    public var lastUpdated: Int64

    public init(serialNumbers: [String], lastUpdated: Int64) {
        self.serialNumbers = serialNumbers
        self.lastUpdated = lastUpdated
    }
}
