public import Foundation

/// Where a pass's Google Wallet object stands (the issuing API's pass lookup): its id once a link to it was made, and
/// whether a patch is owed to it in the Google outbox.
public struct GoogleObjectState: Sendable, Equatable {
    /// The object's id in Google Wallet; nil for an object noted before the store kept ids (migration 11).
    public var objectID: String?
    /// A patch is owed and not yet done (a change not yet sent, or one Google refused that is tried again).
    public var pending: Bool
    /// Failed attempts of the owed patch so far.
    public var attempts: Int
    /// When the owed patch is due (after a failure, when it is tried again); nil when none is owed.
    public var dueAt: Date?

    public init(objectID: String?, pending: Bool, attempts: Int, dueAt: Date?) {
        self.objectID = objectID
        self.pending = pending
        self.attempts = attempts
        self.dueAt = dueAt
    }
}
