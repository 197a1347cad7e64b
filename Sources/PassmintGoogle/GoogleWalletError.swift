public import Passmint

/// A failure talking to Google Wallet, preparing what is sent to it, or verifying what it sends (a save/delete
/// callback). The message says what is wrong and what to do next; compare ``code``, not messages.
public struct GoogleWalletError: CodedError, Equatable {
    public enum Code: String, Sendable, CustomStringConvertible {
        /// The service account key file is missing, unreadable or not a service account key.
        case invalidServiceAccount = "invalid-service-account"
        /// Google's token endpoint refused the service account's assertion.
        case authenticationFailed = "authentication-failed"
        /// An id for a class or object breaks Google's rules.
        case invalidIdentifier = "invalid-identifier"
        /// Google refused a class or object (400, 403, 404…).
        case refused
        /// Google kept answering 429 or 5xx, or could not be reached, after every attempt.
        case unavailable
        /// A save link would be longer than browsers accept.
        case linkTooLong = "link-too-long"
        /// The file of Google's callback signing keys is missing, unreadable or holds no usable key.
        case invalidCallbackKeys = "invalid-callback-keys"
        /// A posted save/delete callback is not a callback message at all (the service answers 400).
        case malformedCallback = "malformed-callback"
        /// A callback message whose signatures, keys or times do not hold (the service answers 401). The message is
        /// short and names what failed.
        case unverifiedCallback = "unverified-callback"

        public var description: String { rawValue }
    }

    public var code: Code
    public var message: String
    /// The HTTP status Google answered, when there was one.
    public var status: Int?

    public init(_ code: Code, _ message: String, status: Int? = nil) {
        self.code = code
        self.message = message
        self.status = status
    }

    static func malformed(_ message: String) -> GoogleWalletError { GoogleWalletError(.malformedCallback, message) }
    static func unverified(_ message: String) -> GoogleWalletError { GoogleWalletError(.unverifiedCallback, message) }
}
