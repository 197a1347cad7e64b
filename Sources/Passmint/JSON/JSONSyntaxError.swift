/// Where and why a JSON text failed to parse.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    /// 1-based line of the offending character.
    public var line: Int
    /// 1-based column (in bytes) of the offending character.
    public var column: Int

    public var description: String { "line \(line), column \(column): \(message)" }
}
