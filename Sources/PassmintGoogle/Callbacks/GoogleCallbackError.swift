public import Passmint

/// Why a save/delete callback was refused: ``Code/malformed`` when it is not a callback message at all (answer 400),
/// ``Code/unverified`` when it is one but its signatures, keys or times do not hold (answer 401). The message is
/// short and names what failed.
public struct GoogleCallbackError: CodedError, Equatable {
    public enum Code: String, Sendable, CustomStringConvertible {
        case malformed
        case unverified

        public var description: String { rawValue }
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    static func malformed(_ message: String) -> GoogleCallbackError { GoogleCallbackError(.malformed, message) }
    static func unverified(_ message: String) -> GoogleCallbackError { GoogleCallbackError(.unverified, message) }
}
