/// The outcome of one push to one device.
public struct PushOutcome: Sendable, Equatable {
    public enum Result: String, Sendable {
        /// APNs accepted it (200).
        case delivered
        /// The token is no longer valid (410 `Unregistered`, 400 `BadDeviceToken`): the registration should go.
        case unregistered
        /// Any other failure, after retries for 429 and 5xx.
        case failed
    }

    public var pushToken: String
    public var result: Result
    /// The last HTTP status, 0 when no response arrived.
    public var status: Int
    /// APNs's `reason`, or the transport error.
    public var reason: String?
    public var attempts: Int
    /// How long APNs asked to wait before the next try (`Retry-After` on 429 or 503), when it did.
    public var retryAfter: Duration?

    public init(pushToken: String, result: Result, status: Int, reason: String?, attempts: Int, retryAfter: Duration? = nil) {
        self.pushToken = pushToken
        self.result = result
        self.status = status
        self.reason = reason
        self.attempts = attempts
        self.retryAfter = retryAfter
    }
}

/// Sends "this pass type changed" notifications to devices.
public protocol PushSender: Sendable {
    /// Pushes an empty notification with `topic` (the pass type identifier) to every token, concurrently with a
    /// bound; never throws: each token gets an outcome.
    func push(topic: String, pushTokens: [String]) async -> [PushOutcome]
}
