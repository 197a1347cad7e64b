/// A string-valued key of `order.json` whose values Apple lists (a status, a type): any string is kept when an order
/// is read, so an order with a value this version of Passmint does not know still round-trips; ``OrderLinter`` says
/// which values Wallet accepts. Coded as the bare string (the standard library's coding of string raw values).
public protocol OpenStringValue: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension OpenStringValue {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }
}
