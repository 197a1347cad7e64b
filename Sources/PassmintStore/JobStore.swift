public import Foundation

/// A bulk-update job as the database keeps it for a fleet: its state (the service's JSON of it) and what the store
/// needs to find it (kind, running or not, when it started and ended).
public struct SharedJob: Sendable, Equatable {
    public var id: String
    /// `updates` (an upload's lines, which any node may take over) or `template`.
    public var kind: String
    public var running: Bool
    /// The job's state as JSON, written after every chunk.
    public var json: String
    public var createdAt: Date
    public var finishedAt: Date?

    public init(id: String, kind: String, running: Bool, json: String, createdAt: Date, finishedAt: Date?) {
        self.id = id
        self.kind = kind
        self.running = running
        self.json = json
        self.createdAt = createdAt
        self.finishedAt = finishedAt
    }
}

/// One bad line of a job, kept for `GET /api/v1/jobs/{id}/failures`: `phase` and `line` name it (a line written twice,
/// by a node that replays a chunk, is kept once). A pass a template's new version does not fit is one too, of phase
/// ``kept`` (`["<type>", "<serial>"]`, every one of them, uncapped): the publish leaves it at its version, and lists it
/// apart from the failures.
public struct SharedJobFailure: Sendable, Equatable {
    public static let kept = "kept"

    public var phase: String
    public var line: Int
    public var json: String

    public init(phase: String, line: Int, json: String) {
        self.phase = phase
        self.line = line
        self.json = json
    }
}

/// Bulk-update jobs kept in the database, so that any node of a fleet finishes a job whose node is gone: a job's upload
/// and state are stored when it is acknowledged, the node running it holds a lease on it (renewed while it runs, and
/// with every chunk's progress), and a node finds a job whose lease ended and takes it over. Both stores keep them, in
/// the same tables: on SQLite the "other node" is the next start of the service (or another process on the file).
public protocol JobStore: Sendable {
    /// Records a new job and its upload (read by `nextBlock` a block at a time until it gives nil) in one transaction,
    /// held by `owner` for `lease`.
    func insertJob(_ job: SharedJob, owner: String, lease: Duration, nextBlock: (() throws -> [UInt8]?)?) async throws

    /// Writes a job's state and, while it runs, renews `owner`'s lease; false (nothing written) when another node
    /// holds it now. A nil `owner` writes whoever holds it.
    func saveJob(_ job: SharedJob, owner: String?, lease: Duration) async throws -> Bool

    /// Renews `owner`'s lease on a running job; false when it holds it no more.
    func renewJobLease(id: String, owner: String, lease: Duration) async throws -> Bool

    /// Ends `owner`'s lease on a running job now (its node stops gracefully, after saving the job's progress): the next
    /// node that looks takes the job over without waiting for the lease to end. Nothing when another node holds it.
    func releaseJobLease(id: String, owner: String) async throws

    /// Gives `owner`, for `lease`, the oldest running job of `kind` whose lease has ended; nil when there is none.
    func claimJob(kind: String, owner: String, lease: Duration) async throws -> SharedJob?

    func sharedJob(id: String) async throws -> SharedJob?

    /// The newest jobs first, at most `limit`.
    func sharedJobs(limit: Int) async throws -> [SharedJob]

    /// Passes the job's upload to `body` a block at a time, in order; false when the store holds none.
    func readJobUpload(id: String, _ body: ([UInt8]) throws -> Void) async throws -> Bool

    /// Removes the uploads of the job `id`, of every job that ended before `endedBefore`, and (`abandonedFor`) the blocks
    /// of an upload with no job whose last block was written that long ago (a receiver killed between its blocks).
    func removeJobUploads(id: String?, endedBefore: Date?, abandonedFor: Duration?) async throws

    /// Keeps failures of a job (a failure kept already stays as it is).
    func appendJobFailures(id: String, _ failures: [SharedJobFailure]) async throws

    /// The job's failures in the order they were kept, `limit` after the `offset`th: the passes it keeps
    /// (``SharedJobFailure/kept``) when `kept`, else the others.
    func jobFailures(id: String, kept: Bool, offset: Int, limit: Int) async throws -> [String]
}
