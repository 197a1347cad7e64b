/// Where and why a JSON text failed to parse.
public struct JSONSyntaxError: CodedError, Hashable {
    public var code: PassmintError.Code { .invalidData }
    public var message: String
    /// 1-based line of the offending character.
    public var line: Int
    /// 1-based column (in bytes) of the offending character.
    public var column: Int

    public var description: String { "line \(line), column \(column): \(message)" }
}
