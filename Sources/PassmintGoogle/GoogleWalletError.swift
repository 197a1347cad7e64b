public import Passmint

/// A failure talking to Google Wallet or preparing what is sent to it. The message says what is wrong and what to
/// do next; compare ``code``, not messages.
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

}
