public import Foundation
public import Passmint
public import PassmintStore

/// A bulk change the service applies in the background: the lines of a `POST /api/v1/updates` upload, or every pass
/// of a template after `POST /api/v1/templates/{name}/publish`. Kept in the jobs folder (`JobFolder`), or with
/// PostgreSQL in the database (`JobStore`), and written after every committed chunk, so a restarted
/// service (or, with PostgreSQL, another node) goes on where the last one stopped.
public struct UpdateJob: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// JSON Lines of `{"passTypeIdentifier", "serialNumber", "data", "voided", "images"}`.
        case updates
        /// Every pass issued from ``UpdateJob/template``.
        case template
    }

    public enum State: String, Sendable {
        case running, finished
        /// Stopped as a whole (its upload is gone, or a template's new version fails every pass); ``UpdateJob/error``
        /// says why. A bad line never stops a job.
        case failed
    }

    /// Where a template-wide change stands: its new version is first checked against every stored pass (the old one
    /// still serves), then installed and applied.
    public enum Phase: String, Sendable {
        case checking, applying
    }

    public var id: String
    public var kind: Kind
    public var state: State = .running
    /// The template of a template-wide change.
    public var template: String?
    /// Values set on every pass of a template-wide change (merged as a `PATCH` merges its `data`).
    public var data: JSONObject?
    /// A template-wide change drops from each pass's data the keys the template does not use (`"purgeUnused": true`).
    public var purgeUnused = false
    public var phase: Phase?
    /// Lines (or passes) done, bad ones included.
    public var done = 0
    /// Passes checked against a template's new version (``Phase/checking``).
    public var checked = 0
    /// The upload's bytes done: where a restart goes on.
    public var offset: Int64 = 0
    /// The last pass done of a template-wide change: where a restart goes on.
    public var after: PassKey?
    /// When the chunk after ``offset`` started: lines of it a killed service had applied already count as changed
    /// when the restart applies them again.
    public var chunkStartedAt: Date?
    public var changed = 0
    /// Lines that left their pass as it was (nothing pushed).
    public var unchanged = 0
    public var failed = 0
    /// Passes a template's new version fails: they keep being served at their last good version.
    public var kept = 0
    /// Failures written to the failures file (at most ``JobLimits/failuresKept``); the others are only counted.
    public var failuresWritten = 0
    /// The first failures (at most ``JobLimits/failuresInState``), kept with the state: `{"line", "serialNumber", "reason"}`.
    public var firstFailures: [JSONValue] = []
    /// Pushes the changes owed (before coalescing across passes).
    public var pushesQueued = 0
    public var createdAt: Date
    public var finishedAt: Date?
    public var error: String?
    /// What the caller should know about a finished job (e.g. that no pass was issued from the template).
    public var note: String?

    public init(id: String, kind: Kind, createdAt: Date = Date()) {
        self.id = id
        self.kind = kind
        self.createdAt = createdAt
    }
}
