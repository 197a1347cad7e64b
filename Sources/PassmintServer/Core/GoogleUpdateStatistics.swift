import PassmintGoogle

/// What the Google update queue did since the service started, for monitoring (`GET /metrics`): one count per owed
/// object update it claimed, by what became of it.
package struct GoogleUpdateStatistics: Sendable, Equatable {
    /// Google had no object for the pass: it was inserted.
    package var inserted = 0
    /// Google's object differed: it was patched.
    package var patched = 0
    /// Google's object already was the pass's version (or the pass no longer exists): nothing was sent.
    package var unchanged = 0
    /// Google could not be reached or refused, after the client's own retries: the update stays owed and is tried
    /// again after a back-off.
    package var failed = 0
    /// Updates claimed again after an earlier failure (whatever their outcome this time).
    package var retried = 0

    package init() {}

    mutating func count(_ outcome: GoogleWalletClient.Outcome?, attempts: Int) {
        if attempts > 0 { retried += 1 }
        switch outcome {
        case .inserted: inserted += 1
        case .patched: patched += 1
        case .unchanged: unchanged += 1
        case nil: failed += 1
        }
    }
}
