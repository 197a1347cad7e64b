package import Foundation
package import Passmint
package import PassmintStore

/// A bulk change the service applies in the background: the lines of a `POST /api/v1/updates` upload, or every pass
/// of a template after `POST /api/v1/templates/{name}/publish`. Kept in the database (`JobStore`, SQLite as
/// PostgreSQL) and written after every committed chunk, so a restarted service (or another node) goes on where the
/// last one stopped.
package struct UpdateJob: Sendable, Equatable {
    package enum Kind: String, Sendable {
        /// JSON Lines of `{"passTypeIdentifier", "serialNumber", "data", "voided", "images"}`.
        case updates
        /// Every pass issued from ``UpdateJob/template``.
        case template
    }

    package enum State: String, Sendable {
        case running, finished
        /// Stopped as a whole (its upload is gone, or a template's new version fails every pass); ``UpdateJob/error``
        /// says why. A bad line never stops a job.
        case failed
    }

    /// Where a template-wide change stands: its new version is first checked against every stored pass (the old one
    /// still serves), then installed and applied.
    package enum Phase: String, Sendable {
        case checking, applying
    }

    package var id: String
    package var kind: Kind
    package var state: State = .running
    /// The template of a template-wide change.
    package var template: String?
    /// Values set on every pass of a template-wide change (merged as a `PATCH` merges its `data`).
    package var data: JSONObject?
    /// A template-wide change drops from each pass's data the keys the template does not use (`"purgeUnused": true`).
    package var purgeUnused = false
    package var phase: Phase?
    /// Lines (or passes) done, bad ones included.
    package var done = 0
    /// Passes checked against a template's new version (``Phase/checking``).
    package var checked = 0
    /// The upload's bytes done: where a restart goes on.
    package var offset: Int64 = 0
    /// The last pass done of a template-wide change: where a restart goes on.
    package var after: PassKey?
    /// When the chunk after ``offset`` started: lines of it a killed service had applied already count as changed
    /// when the restart applies them again.
    package var chunkStartedAt: Date?
    package var changed = 0
    /// Lines that left their pass as it was (nothing pushed).
    package var unchanged = 0
    package var failed = 0
    /// Passes a template's new version fails: they keep being served at their last good version.
    package var kept = 0
    /// Failures written to the database (at most ``JobLimits/failuresKept``); the others are only counted.
    package var failuresWritten = 0
    /// The first failures (at most ``JobLimits/failuresInState``), kept with the state: `{"line", "serialNumber", "reason"}`.
    package var firstFailures: [JSONValue] = []
    /// Pushes the changes owed (before coalescing across passes).
    package var pushesQueued = 0
    package var createdAt: Date
    package var finishedAt: Date?
    package var error: String?
    /// What the caller should know about a finished job (e.g. that no pass was issued from the template).
    package var note: String?

    package init(id: String, kind: Kind, createdAt: Date = Date()) {
        self.id = id
        self.kind = kind
        self.createdAt = createdAt
    }
}
