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
/// order. After each chunk the job's state is saved (``JobFolder``); a restarted service goes on from there, and
/// lines done again change nothing the second time. A bad line is reported and skipped.
public final class UpdateJobService: Service, Sendable {
    let folder: JobFolder
    let updates: UpdateService
    let templates: TemplateCatalog
    let store: any PassStore
    let logger: Logger
    /// Opens when the store is migrated; jobs start then.
    let ready: StoreReadiness
    /// Lines per saved chunk, and lines in flight at once.
    let chunk: Int
    let concurrency: Int
    private let pending: AsyncStream<String>
    private let enqueue: AsyncStream<String>.Continuation
    /// The jobs started or resumed here, as they stand after their last chunk.
    let live = Mutex<[String: UpdateJob]>([:])

    init(
        folder: JobFolder, updates: UpdateService, templates: TemplateCatalog, store: any PassStore, logger: Logger,
        ready: StoreReadiness, chunk: Int = 1000, concurrency: Int = 64
    ) {
        self.ready = ready
        self.folder = folder
        self.updates = updates
        self.templates = templates
        self.store = store
        self.logger = logger
        self.chunk = chunk
        self.concurrency = concurrency
        (pending, enqueue) = AsyncStream.makeStream(of: String.self)
    }

    /// A new upload to write the request's body into; then ``submit(_:)``.
    public func newUpload() throws(ServiceFailure) -> JobUpload {
        try folder.create()
        let id = Self.newID()
        return try JobUpload(id: id, path: folder.upload(id))
    }

    /// Makes the upload durable and queues its job: once this returns, the job is done even if the service restarts.
    public func submit(_ upload: JobUpload) throws -> UpdateJob {
        try upload.finish()
        return try start(UpdateJob(id: upload.id, kind: .updates))
    }

    /// Loads the template's new version from its folder (refused, keeping the old, when it does not load) and queues
    /// a job giving every pass issued from it a new version, with `data` merged into each pass's data.
    public func publish(template: String, data: JSONObject?) throws -> UpdateJob {
        try templates.reload(named: template)
        var job = UpdateJob(id: Self.newID(), kind: .template)
        job.template = template
        job.data = data
        return try start(job)
    }

    private func start(_ job: UpdateJob) throws -> UpdateJob {
        try folder.create()
        try folder.save(job)
        live.withLock { $0[job.id] = job }
        enqueue.yield(job.id)
        logger.info("job queued", metadata: ["job": "\(job.id)", "kind": "\(job.kind.rawValue)"])
        return job
    }

    /// A job as it stands now; nil when there is none with this id.
    public func job(_ id: String) -> UpdateJob? {
        live.withLock { $0[id] } ?? (JobFolder.isJobID(id) ? folder.load(id) : nil)
    }

    /// Every job this node knows, newest first.
    public func jobs() -> [UpdateJob] {
        let running = live.withLock { $0 }
        return folder.all().map { running[$0.id] ?? $0 }.reversed()
    }

    /// The first `limit` bad lines of a job: `{"line", "serialNumber", "reason"}`.
    public func failures(_ id: String, limit: Int = 1000) -> [JSONValue] {
        JobFolder.isJobID(id) ? folder.failureLines(id, limit: limit) : []
    }

    /// Runs the queued jobs, and first those a stopped service left unfinished; on graceful shutdown it stops after
    /// the chunk in flight, and the next start goes on from there.
    public func run() async throws {
        // Not before the store is migrated; and a service stopped before that never starts.
        guard await cancelWhenGracefulShutdown({ await self.ready.wait() }) else { return }
        for job in folder.all() where job.state == .running {
            logger.notice("resuming a job", metadata: ["job": "\(job.id)", "done": "\(job.done)"])
            live.withLock { $0[job.id] = job }
            enqueue.yield(job.id)
        }
        await withGracefulShutdownHandler {
            for await id in pending {
                guard !Task.isShuttingDownGracefully else { break }
                await execute(id)
            }
        } onGracefulShutdown: { [enqueue] in
            enqueue.finish()
        }
    }

    static func newID() -> String {
        (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }
}
