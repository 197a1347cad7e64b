extension JSONParser {
    /// How strictly the parser reads.
    public struct Options: Sendable {
        /// Accept `[1, 2,]` and `{"a": 1,}`; each one is recorded in ``JSONParser/Result/trailingCommas``.
        public var allowTrailingCommas: Bool
        public init(allowTrailingCommas: Bool = false) { self.allowTrailingCommas = allowTrailingCommas }
    }

    /// The result of a parse, with the places where a tolerated trailing comma was found.
    public struct Result: Sendable {
        public var value: JSONValue
        public var trailingCommas: [(line: Int, column: Int)]
    }
}
