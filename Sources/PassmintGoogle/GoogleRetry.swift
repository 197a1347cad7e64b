import Foundation
import Passmint

/// How the client waits between attempts when Google answers 429 or 5xx or cannot be reached: `Retry-After` when
/// Google sends it (seconds or an HTTP-date), otherwise `firstDelay` doubling per attempt up to `maximumDelay`.
public struct GoogleRetry: Sendable {
    public var maxAttempts: Int
    public var firstDelay: Duration
    public var maximumDelay: Duration
    /// Waits; tests pass one that records the wait and returns at once.
    public var sleep: @Sendable (Duration) async throws -> Void

    public init(
        maxAttempts: Int = 5, firstDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(60),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
        self.sleep = sleep
    }

    /// Whether an answer with `status` is worth another attempt.
    static func retries(_ status: Int) -> Bool { status == 429 || (500...599).contains(status) }

    /// The wait before attempt `attempt + 1` (attempt counts from 1).
    func delay(after attempt: Int, retryAfter: String?, now: Date) -> Duration {
        if let retryAfter = retryAfter?.trimmingCharacters(in: .whitespaces) {
            if let seconds = Int(retryAfter), seconds >= 0 { return min(.seconds(seconds), maximumDelay) }
            if let date = HTTPDate.parse(retryAfter) {
                let seconds = max(0, date.timeIntervalSince(now))
                return min(.milliseconds(Int(seconds * 1000)), maximumDelay)
            }
        }
        var delay = firstDelay
        for _ in 1..<max(1, attempt) { delay = min(delay * 2, maximumDelay) }
        return min(delay, maximumDelay)
    }
}
