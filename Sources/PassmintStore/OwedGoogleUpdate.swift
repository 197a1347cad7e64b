public import Foundation

/// A patch the store owes a pass's Google Wallet object: "this pass changed since Google last got it". Written in the
/// same transaction as the change (only for passes whose object Google holds, see
/// ``PassStore/noteGoogleObject(passTypeIdentifier:serialNumber:updateTag:)``), coalesced per pass: several changes
/// before the patch goes out make one patch, to the pass's latest version.
public struct OwedGoogleUpdate: Sendable, Hashable {
    public var passTypeIdentifier: String
    public var serialNumber: String
    /// Bumped by every change that owes the patch again: a patch settled for an older generation leaves the row owed.
    public var generation: Int64
    /// Failed attempts so far (for the back-off).
    public var attempts: Int
    /// When the oldest change still unsent was committed.
    public var enqueuedAt: Date

    public init(passTypeIdentifier: String, serialNumber: String, generation: Int64, attempts: Int, enqueuedAt: Date) {
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.generation = generation
        self.attempts = attempts
        self.enqueuedAt = enqueuedAt
    }
}

/// What became of the Google patches a worker claimed, written in one transaction
/// (``PassStore/settleGoogleUpdates(_:)``).
public struct GoogleUpdateSettlement: Sendable {
    /// Google has the pass's version the worker read: done, unless a newer change owes the patch again.
    public var done: [OwedGoogleUpdate] = []
    /// To try again at the given time.
    public var retry: [(update: OwedGoogleUpdate, at: Date)] = []

    public init() {}
}
