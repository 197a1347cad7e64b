/// Why a benchmark cannot go on, in words.
public struct BenchError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension Duration {
    /// The duration in seconds, fractions included.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
