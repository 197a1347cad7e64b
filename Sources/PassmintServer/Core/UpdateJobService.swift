import Foundation
import Logging
public import Passmint
import PassmintStore
public import ServiceLifecycle
import Synchronization

/// Bulk changes in the background, one job at a time in the order they came: the lines of an upload
/// (``UpdateJob/Kind/updates``) or every pass of a republished template (``UpdateJob/Kind/template``). Each line is
/// the change a `PATCH` makes (``UpdateService``, without signing: the new version is signed when asked for), a
/// chunk of lines at a time with several in flight (the store commits them together), the lines of one pass in
/// order. After each chunk the job's state is saved (`JobFolder`); a restarted service goes on from there, and
/// lines done again change nothing the second time (they count as they did the first). A bad line is reported and
/// skipped. Jobs run on a thread of their own (`JobThread`), never on the pool that answers devices.
///
/// With a store that keeps jobs (`JobStore`: PostgreSQL, a fleet), an upload and its progress live in the database
/// instead, under a lease this node renews while it runs the job: when its node is gone, another node takes the job
/// over where its last chunk left it (see `UpdateJobService+Shared`).
public final class UpdateJobService: Service, Sendable {
    let folder: JobFolder
    let updates: UpdateService
    /// Lines naming an order (`orderTypeIdentifier`, `orderIdentifier`) are the change a `PATCH` of the order makes.
    let orders: OrderService?
    let templates: TemplateCatalog
    let store: any PassStore
    let logger: Logger
    /// The database's copy of the jobs, with a fleet's store; nil: jobs stay in ``folder``.
    let shared: (any JobStore)?
    /// This node's name on the jobs it holds.
    let node = UpdateJobService.newID()
    /// How long this node holds a job without renewing (``ServerConfiguration/jobLease``).
    let lease: Duration
    /// The uploaded jobs this node holds the lease of (queued or running), renewed while they run.
    let held = Mutex<Set<String>>([])
    /// Publishes template versions to the other nodes and installs theirs, with a fleet's store.
    let sync: TemplateSync?
    /// Jobs another node took over from this one (it stopped renewing in time): this node leaves them.
    let lost = Mutex<Set<String>>([])
    /// Opens when the store is migrated; jobs start then.
    let ready: StoreReadiness
    let limits: JobLimits
    /// Lines in flight at once.
    let concurrency: Int
    let thread = JobThread()
    /// Blocking file work on request paths (an upload's writes and fsync, a new job's state, a template's files read
    /// for publishing): see ``receive(_:)``.
    let files = JobThread(name: "passmint-files")
    /// When this service was made: uploads older than this with no job are what a killed service left.
    let startedAt = Date()
    private let pending: AsyncStream<String>
    let enqueue: AsyncStream<String>.Continuation
    /// The jobs started or resumed here, as they stand after their last chunk.
    let live = Mutex<[String: UpdateJob]>([:])
    /// Template versions being checked before they are published, by job.
    let candidates = Mutex<[String: PassTemplate]>([:])
    /// Called before each piece of an upload is written, on the thread writing it (tests).
    let beforeEachUploadWrite = Mutex<(@Sendable () -> Void)?>(nil)
    /// Called before each line or pass is applied or checked, on the thread doing it (tests).
    let beforeEachItem = Mutex<(@Sendable () -> Void)?>(nil)

    init(
        folder: JobFolder, updates: UpdateService, orders: OrderService? = nil, templates: TemplateCatalog, store: any PassStore,
        logger: Logger, ready: StoreReadiness, limits: JobLimits = JobLimits(), concurrency: Int = 64, shared: (any JobStore)? = nil,
        lease: Duration = .seconds(60), sync: TemplateSync? = nil
    ) {
        self.orders = orders
        self.shared = shared
        self.sync = sync
        self.lease = lease
        self.ready = ready
        self.folder = folder
        self.updates = updates
        self.templates = templates
        self.store = store
        self.logger = logger
        self.limits = limits
        self.concurrency = concurrency
        (pending, enqueue) = AsyncStream.makeStream(of: String.self)
    }

    /// A new upload to write the request's body into; then ``submit(_:)``. Refused (507) when the disk is down to its
    /// reserve.
    public func newUpload() throws(ServiceFailure) -> JobUpload {
        try folder.create()
        let id = Self.newID()
        let folder = folder
        let reserve = limits.diskReserve
        return try JobUpload(id: id, path: folder.upload(id), hasRoom: { folder.hasRoom(reserve: reserve) })
    }

    /// Makes the upload durable (in the database too, with a fleet's store) and queues its job: once this returns, the
    /// job is done even if the service restarts.
    public func submit(_ upload: JobUpload) async throws -> UpdateJob {
        try await files.perform { try upload.finish() }
        let job = UpdateJob(id: upload.id, kind: .updates)
        if let shared {
            try await insertShared(job, into: shared)
        } else {
            try await files.perform { try self.stage(job) }
        }
        queue(job)
        return job
    }

    /// Loads the template's new version from its folder (refused when it does not load) and queues a job that checks
    /// it against every pass issued from the template, then makes it the template's version and gives every pass
    /// that fits it a new version, with `data` merged into each pass's data. Until the check is done the old version
    /// serves; a pass the new version does not fit keeps its last good version. The template's files are read and the
    /// job's first state written on `files`. With `purgeUnused`, each pass's stored data keys the template does not use
    /// are dropped as its new version is made.
    public func publish(template: String, data: JSONObject?, purgeUnused: Bool = false) async throws -> UpdateJob {
        let job = try await files.perform {
            let name = TemplateCatalog.canonicalName(template)
            let candidate = try self.templates.candidate(named: name)
            var job = UpdateJob(id: Self.newID(), kind: .template)
            job.template = name
            job.data = data
            job.purgeUnused = purgeUnused
            job.phase = .checking
            try self.stage(job)
            self.candidates.withLock { $0[job.id] = candidate }
            return job
        }
        if let shared { try await insertShared(job, into: shared) }
        queue(job)
        return job
    }

    /// Writes a new job's first state to the jobs folder.
    private func stage(_ job: UpdateJob) throws {
        try folder.create()
        try folder.save(job)
    }

    private func queue(_ job: UpdateJob) {
        guard admit(job) else { return }
        logger.info("job queued", metadata: ["job": "\(job.id)", "kind": "\(job.kind.rawValue)"])
    }

    /// Holds `job` and queues it to run, unless this node holds it already (queued, running or ended): each job runs
    /// once.
    private func admit(_ job: UpdateJob) -> Bool {
        let fresh = live.withLock { live in
            guard live[job.id] == nil else { return false }
            live[job.id] = job
            return true
        }
        if fresh { enqueue.yield(job.id) }
        return fresh
    }

    /// A job this node runs or keeps in its folder, as it stands now; nil when there is none with this id. See
    /// ``status(_:)`` for any node's jobs.
    public func job(_ id: String) -> UpdateJob? {
        live.withLock { $0[id] } ?? (JobFolder.isJobID(id) ? folder.load(id) : nil)
    }

    /// Every job this node knows, newest first.
    public func jobs() -> [UpdateJob] {
        let running = live.withLock { $0 }
        return folder.all().map { running[$0.id] ?? $0 }.reversed()
    }

    /// The job's failures file, to stream; nil when it has none.
    func failures(_ id: String) -> FileHandle? {
        JobFolder.isJobID(id) ? folder.openFailures(id) : nil
    }

    /// Runs the queued jobs, and first those a stopped service left unfinished; on graceful shutdown it stops after
    /// the chunk in flight, and the next start goes on from there (with a fleet's store, the next node that looks: the
    /// leases this node holds are released once the chunk's progress is saved).
    public func run() async throws {
        // Not before the store is migrated; and a service stopped before that never starts.
        guard await cancelWhenGracefulShutdown({ await self.ready.wait() }) else { return }
        for name in folder.removeOrphans(before: startedAt) {
            logger.notice("removed what a stopped service left in the jobs folder", metadata: ["file": "\(name)"])
        }
        await removeExpiredUploads()
        // With a fleet's store a template-wide change left running is taken over through its lease (by this node or another).
        // Only what a stopped service left: a job received since this start is queued by its receiver, and one staged
        // while this scan runs may be the one being received right now (written, not yet queued).
        for job in folder.all() where job.state == .running && (shared == nil || job.kind == .updates) && left(job) {
            guard admit(job) else { continue }
            logger.notice("resuming a job", metadata: ["job": "\(job.id)", "done": "\(job.done)"])
        }
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                // Leases and template versions beside the jobs, off their thread: a long chunk never delays a renewal.
                if let shared { group.addTask { await self.tend(shared) } }
                if let sync { group.addTask { await sync.follow() } }
                await withTaskExecutorPreference(thread) {
                    for await id in pending {
                        guard !Task.isShuttingDownGracefully else { break }
                        await execute(id)
                    }
                }
                group.cancelAll()
            }
        } onGracefulShutdown: { [enqueue] in
            enqueue.finish()
        }
        if let shared { await release(held.withLock { $0 }, in: shared) }
    }

    /// Whether `job` was created before this service started (its state keeps milliseconds: a job created within the
    /// millisecond of the start counts as this start's).
    func left(_ job: UpdateJob) -> Bool { job.createdAt.addingTimeInterval(0.001) < startedAt }

    /// Removes the uploads of jobs that ended more than ``JobLimits/uploadRetention`` ago.
    func removeExpiredUploads(now: Date = Date()) async {
        let retention = Double(limits.uploadRetention.components.seconds)
        if let shared {
            do {
                try await shared.removeJobUploads(id: nil, endedBefore: now.addingTimeInterval(-retention))
            } catch {
                logger.error("cannot remove the uploads of ended jobs from the database", metadata: ["error": "\(LogText.error(error))"])
            }
        }
        for job in folder.all() where job.state != .running {
            guard let finished = job.finishedAt, now.timeIntervalSince(finished) >= retention else { continue }
            guard folder.removeUpload(job.id) else { continue }
            logger.info("removed the upload of a job that ended before its retention", metadata: ["job": "\(job.id)"])
        }
    }

    static func newID() -> String {
        (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }
}
