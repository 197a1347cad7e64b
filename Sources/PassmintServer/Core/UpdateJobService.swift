import Foundation
import Logging
package import Passmint
import PassmintStore
import ServiceLifecycle
import Synchronization

/// Bulk changes in the background, one job at a time in the order they came: the lines of an upload
/// (``UpdateJob/Kind/updates``) or every pass of a republished template (``UpdateJob/Kind/template``). Each line is
/// the change a `PATCH` makes (``UpdateService``, without signing: the new version is signed when asked for), a
/// chunk of lines at a time with several in flight (the store commits them together), the lines of one pass in
/// order. Jobs live in the store (`JobStore`, SQLite as PostgreSQL): an upload and the job's state after every chunk,
/// under a lease this node renews while it runs the job; when the lease lapses (the service was killed, or stopped
/// and released it) the next start, or another node of a fleet, takes the job over where its last chunk left it (see
/// `UpdateJobService+Shared`). Lines done again change nothing the second time (they count as they did the first). A
/// bad line is reported and skipped. The jobs folder (`JobFolder`) holds only uploads as they arrive or as this node
/// runs them. Jobs run on a thread of their own (`JobThread`), never on the pool
/// that answers devices.
package final class UpdateJobService: Service, Sendable {
    let folder: JobFolder
    /// Lines naming an order (`orderTypeIdentifier`, `orderIdentifier`) are the change a `PATCH` of the order makes.
    let updates: UpdateService
    let templates: TemplateCatalog
    let store: any PassStore
    let logger: Logger
    /// This node's name on the jobs it holds.
    let node = randomHex(16)
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
        folder: JobFolder, updates: UpdateService, templates: TemplateCatalog, store: any PassStore,
        logger: Logger, ready: StoreReadiness, limits: JobLimits = JobLimits(), concurrency: Int = 64,
        lease: Duration = .seconds(60), sync: TemplateSync? = nil
    ) {
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
    package func newUpload() throws(ServiceFailure) -> JobUpload {
        try folder.create()
        let id = randomHex(16)
        let folder = folder
        let reserve = limits.diskReserve
        return try JobUpload(id: id, path: folder.upload(id), hasRoom: { folder.hasRoom(reserve: reserve) })
    }

    /// Makes the upload durable and stores it with its job in the database, then queues the job: once this returns, the
    /// job is done even if the service restarts.
    package func submit(_ upload: JobUpload) async throws -> UpdateJob {
        try await files.perform { try upload.finish() }
        let job = UpdateJob(id: upload.id, kind: .updates)
        try await insertShared(job)
        queue(job)
        return job
    }

    /// Loads the template's new version from its folder (refused when it does not load) and queues a job that checks
    /// it against every pass issued from the template, then makes it the template's version and gives every pass
    /// that fits it a new version, with `data` merged into each pass's data. Until the check is done the old version
    /// serves; a pass the new version does not fit keeps its last good version. The template's files are read and the
    /// job's first state written on `files`. With `purgeUnused`, each pass's stored data keys the template does not use
    /// are dropped as its new version is made.
    package func publish(template: String, data: JSONObject?, purgeUnused: Bool = false) async throws -> UpdateJob {
        let job = try await files.perform {
            let name = TemplateCatalog.canonicalName(template)
            let candidate = try self.templates.candidate(named: name)
            var job = UpdateJob(id: randomHex(16), kind: .template)
            job.template = name
            job.data = data
            job.purgeUnused = purgeUnused
            job.phase = .checking
            self.candidates.withLock { $0[job.id] = candidate }
            return job
        }
        try await insertShared(job)
        queue(job)
        return job
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

    /// A job this node started or took over since it started, as it stands now; nil when there is none with this id.
    /// See ``status(_:)`` for any job.
    package func job(_ id: String) -> UpdateJob? { live.withLock { $0[id] } }

    /// The jobs this node started or took over since it started, newest first.
    package func jobs() -> [UpdateJob] { live.withLock { Array($0.values) }.sorted { $0.createdAt > $1.createdAt } }

    /// Runs the queued jobs, and takes over those whose lease lapsed (a stopped or killed service's, or a gone node's);
    /// on graceful shutdown it stops after the chunk in flight and releases the leases it holds once the chunk's
    /// progress is saved, so the next start (or node) goes on from there at once.
    package func run() async throws {
        // Not before the store is migrated; and a service stopped before that never starts.
        guard await cancelWhenGracefulShutdown({ await self.ready.wait() }) else { return }
        await moveFolderJobsIntoStore()
        for name in folder.removeOrphans(before: startedAt) {
            logger.notice("removed what a stopped service left in the jobs folder", metadata: ["file": "\(name)"])
        }
        await removeExpiredUploads()
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                // Leases (and the jobs whose lease lapsed) and template versions beside the jobs, off their thread: a
                // long chunk never delays a renewal. They go on through the shutdown's wait for the chunk (the lease
                // must not lapse under it), and the group's end does not wait for them: a store call an outage's
                // dropped connection holds may never return.
                group.addTask { _ = try? await ShutdownWait.result(abandoningAtShutdown: { false }) { await self.tend() } }
                if let sync {
                    group.addTask { _ = try? await ShutdownWait.result(abandoningAtShutdown: { false }) { await sync.follow() } }
                }
                // A stop waits for the chunk in flight, for at most a lease: a store call a dropped connection holds
                // may never return (seen: a node whose lease another node took over never stopped), and the job goes
                // on from its last saved chunk wherever it is taken over.
                _ = try? await ShutdownWait.result(abandoningAtShutdown: { false }, grace: lease) { [self] in
                    await withTaskExecutorPreference(thread) {
                        for await id in pending {
                            guard !Task.isShuttingDownGracefully else { break }
                            await execute(id)
                        }
                    }
                }
                group.cancelAll()
            }
        } onGracefulShutdown: { [enqueue] in
            enqueue.finish()
        }
        await release(held.withLock { $0 })
    }

    /// Removes the uploads of jobs that ended more than ``JobLimits/uploadRetention`` ago, and those a receiver killed
    /// as it stored them left with no job (their last block written a lease ago: a receiver storing one now goes on).
    func removeExpiredUploads(now: Date = Date()) async {
        let retention = Double(limits.uploadRetention.components.seconds)
        do {
            try await store.removeJobUploads(id: nil, endedBefore: now.addingTimeInterval(-retention), abandonedFor: lease)
        } catch {
            logger.error("cannot remove the uploads of ended jobs from the database", metadata: ["error": "\(LogText.error(error))"])
        }
    }
}
