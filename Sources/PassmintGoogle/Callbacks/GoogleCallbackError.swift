/// Why a save/delete callback was refused: ``Reason/malformed`` when it is not a callback message at all (answer 400),
/// ``Reason/unverified`` when it is one but its signatures, keys or times do not hold (answer 401). The message is
/// short and names what failed.
public struct GoogleCallbackError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        case malformed
        case unverified
    }

    public var reason: Reason
    public var message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    static func malformed(_ message: String) -> GoogleCallbackError { GoogleCallbackError(.malformed, message) }
    static func unverified(_ message: String) -> GoogleCallbackError { GoogleCallbackError(.unverified, message) }

    public var description: String { message }
}
