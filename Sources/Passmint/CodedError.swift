/// The convention every error Passmint's modules throw follows, ``PassmintError``'s: a ``code`` to compare (stable,
/// written in kebab case) and a ``message`` for people that says what went wrong, where (the file, row, column, key,
/// JSON path or setting) and what to do next. The description is the message, with the place in front where the error
/// carries it apart (a line and column). No error's text contains key material, passphrases, tokens or card numbers.
public protocol CodedError: Error, Sendable, CustomStringConvertible {
    associatedtype Code: Hashable, Sendable, CustomStringConvertible
    /// What kind of failure this is. Compare codes, not messages.
    var code: Code { get }
    /// What is wrong, where, and what to do.
    var message: String { get }
}

extension CodedError {
    public var description: String { message }
}
