public import Foundation

/// A push the store owes a device: "passes of this type changed", for one push token. Written in the same transaction
/// as the change that owes it, so a change that committed is never left untold; coalesced by (push token, pass type):
/// several changes before the push goes out make one push.
public struct OwedPush: Sendable, Hashable {
    public var pushToken: String
    public var passTypeIdentifier: String
    /// Bumped by every change that owes this push again: a push settled for an older generation leaves the row owed.
    public var generation: Int64
    /// Failed attempts so far (for the back-off).
    public var attempts: Int
    /// When the oldest change still untold was committed.
    public var enqueuedAt: Date

    public init(pushToken: String, passTypeIdentifier: String, generation: Int64, attempts: Int, enqueuedAt: Date) {
        self.pushToken = pushToken
        self.passTypeIdentifier = passTypeIdentifier
        self.generation = generation
        self.attempts = attempts
        self.enqueuedAt = enqueuedAt
    }
}

/// What became of pushes a pusher claimed, written in one transaction (``PassStore/settlePushes(_:)``).
public struct PushSettlement: Sendable {
    /// APNs took them: each is done, unless a newer change owes it again.
    public var delivered: [OwedPush] = []
    /// APNs says the token is gone: its registrations, its device and what it is owed go.
    public var unregistered: [OwedPush] = []
    /// To try again at the given time.
    public var retry: [(push: OwedPush, at: Date)] = []
    /// The outcome of each attempt, as JSON text, kept per (push token, pass type) for the issuing API.
    public var results: [(push: OwedPush, resultJSON: String)] = []

    public init() {}
}

/// The queue of owed pushes, for metrics.
public struct PushQueueStatus: Sendable, Equatable {
    /// Pushes owed.
    public var depth: Int
    /// Of those, the ones due now (claimed by a pusher or waiting for one); the rest wait for a retry after a failure.
    public var due: Int
    /// When the oldest owed push's change committed; nil when nothing is owed.
    public var oldestEnqueuedAt: Date?

    public init(depth: Int, due: Int, oldestEnqueuedAt: Date?) {
        self.depth = depth
        self.due = due
        self.oldestEnqueuedAt = oldestEnqueuedAt
    }
}

/// Where the push to one device registered for a pass stands.
public struct DevicePushState: Sendable, Equatable {
    public var deviceLibraryIdentifier: String
    /// A push is owed (not yet delivered) for this device and the pass's type.
    public var pending: Bool
    /// The last attempt's outcome as JSON text; nil before the first.
    public var lastResultJSON: String?

    public init(deviceLibraryIdentifier: String, pending: Bool, lastResultJSON: String?) {
        self.deviceLibraryIdentifier = deviceLibraryIdentifier
        self.pending = pending
        self.lastResultJSON = lastResultJSON
    }
}
