/// A request the ``KeepAliveHTTPClient`` could not complete. The message says what happened to which destination and
/// what to do next; compare ``code``, not messages. (By shape the `CodedError` of `Passmint`, which this target does not
/// link.)
package struct KeepAliveHTTPError: Error, Sendable, CustomStringConvertible, Equatable {
    package enum Code: String, Sendable, CustomStringConvertible {
        /// The URL is not an absolute http or https URL.
        case invalidURL = "invalid-url"
        /// No connection could be opened (refused, unreachable, the connect timeout, a TLS handshake refused).
        case connect
        /// The whole request (waiting for a connection, sending, the answer) took longer than its timeout.
        case timedOut = "timed-out"
        /// The connection closed before this request's answer was read: the server may or may not have acted on it.
        case closedBeforeAnswer = "closed-before-answer"
        /// The answer's body is larger than ``KeepAliveHTTPClient/Configuration/maxBodyBytes``.
        case bodyTooLarge = "body-too-large"
        /// The client was shut down.
        case shutDown = "shut-down"

        package var description: String { rawValue }
    }

    package var code: Code
    package var message: String
    /// The answer's status, when one arrived (``Code/bodyTooLarge``).
    package var status: Int?

    package init(_ code: Code, _ message: String, status: Int? = nil) {
        self.code = code
        self.message = message
        self.status = status
    }

    package var description: String { message }
}
