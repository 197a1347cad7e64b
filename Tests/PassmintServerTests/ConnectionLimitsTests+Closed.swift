import Foundation

extension ConnectionLimitsTests {
    /// How many of `connections` the server has closed, once at least `expected` are closed or after `seconds` (a
    /// bound against a hang on a loaded machine, not a measure of speed: closed connections are seen at once).
    static func closedCount(_ connections: some Collection<RawConnection>, atLeast expected: Int, seconds: Int = 30) async -> Int {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var closed = Set<ObjectIdentifier>()
        repeat {
            for connection in connections where !closed.contains(ObjectIdentifier(connection)) {
                if await connection.closedByServer(within: 10) { closed.insert(ObjectIdentifier(connection)) }
            }
        } while closed.count < expected && ContinuousClock.now < deadline
        return closed.count
    }
}
