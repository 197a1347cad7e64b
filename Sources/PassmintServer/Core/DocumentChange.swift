import Passmint
import PassmintStore

/// The one way a pass or an order changes: made from the version read and committed only while the document is still
/// at that version (the store compares its tag in the write transaction). When another change committed first (the
/// store answers `stale`, or `erased` for an erasure), the change is made again from the version now stored and checked
/// again, so no change is lost and the signed bytes kept for a version are those of that version.
enum DocumentChange {
    /// How many times a change is made again because the document changed under it; then it is refused (409 `busy`)
    /// and can be sent again. Each round commits at least one of the changes racing for the document, so only one
    /// changed this many times during one request gets there.
    static let attempts = 100

    /// Runs `attempt` (read, make the change, commit it at the tag read) until it commits; 409 `busy` naming the
    /// `kind` and `identifier` after ``attempts`` rounds.
    static func retrying<T>(
        _ kind: WalletWebService.Kind, _ identifier: String, _ attempt: () async throws -> T
    ) async throws -> T {
        for _ in 0..<attempts {
            do {
                return try await attempt()
            } catch let error as PassStoreError where error.code == .stale || error.code == .erased {
                continue  // another change committed after this one read the document: make it again from the one stored
            }
        }
        throw ServiceFailure.busy(identifier, kind)
    }
}
