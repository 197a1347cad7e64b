/// A setting the service cannot start with; the message names the option or variable and what to give instead.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
