import Foundation
import Logging
import Passmint
import PassmintStore
import ServiceLifecycle
import Synchronization

/// Jobs with a fleet's store (`JobStore`): an upload is stored in the database with the job before the job is
/// acknowledged, and its progress after every chunk, under a lease this node renews while the job is queued or runs
/// (``tend(_:)``). A node whose lease ended is taken over by the next node that looks: it fetches the upload into its
/// own jobs folder and goes on from the last chunk saved, replaying that chunk's lines, which change nothing the second
/// time. A node that finds it lost a job (its save is refused) stops it. Template-wide changes run on the node that
/// received them; their state is copied into the database so that every node answers for them.
extension UpdateJobService {
    /// How big a block of an upload is, in the database.
    static let uploadBlock = 1 << 20

    static func record(_ job: UpdateJob) -> SharedJob {
        SharedJob(
            id: job.id, kind: job.kind.rawValue, running: job.state == .running,
            json: JSONWriter.string(.object(job.json), style: .compact),
            createdAt: job.createdAt, finishedAt: job.finishedAt)
    }

    static func job(_ record: SharedJob) -> UpdateJob? {
        (try? JSONParser.value(Array(record.json.utf8)).objectValue).flatMap(UpdateJob.init(json:))
    }

    /// Stores a new job, with its upload read from the jobs folder a block at a time (on `files`), or a
    /// template-wide change's new version (for the node that takes it over), and holds it.
    func insertShared(_ job: UpdateJob, into shared: any JobStore) async throws {
        let path = job.kind == .updates ? folder.upload(job.id) : nil
        let version = job.kind == .template ? candidates.withLock({ $0[job.id] }).map(Self.versionBytes) : nil
        let (node, lease) = (node, lease)
        do {
            try await files.performAsync {
                let file = try path.map { path in
                    guard let file = FileHandle(forReadingAtPath: path) else {
                        throw ServiceFailure.storage("cannot read the upload back from the jobs folder: try again")
                    }
                    return file
                }
                defer { try? file?.close() }
                var next: (() throws -> [UInt8]?)?
                if let file {
                    next = {
                        guard let data = try file.read(upToCount: Self.uploadBlock), !data.isEmpty else { return nil }
                        return [UInt8](data)
                    }
                } else if let version {
                    var blocks = stride(from: 0, to: version.count, by: Self.uploadBlock).map {
                        Array(version[$0..<min($0 + Self.uploadBlock, version.count)])
                    }.makeIterator()
                    next = { blocks.next() }
                }
                try await shared.insertJob(Self.record(job), owner: node, lease: lease, nextBlock: next)
            }
        } catch let failure as ServiceFailure {
            throw failure
        } catch {
            logger.error("cannot store a job in the database", metadata: ["job": "\(job.id)", "error": "\(LogText.error(error))"])
            throw ServiceFailure.storage("cannot store the job in the database: send it again")
        }
        held.withLock { _ = $0.insert(job.id) }
    }

    /// Saves a job's state in the database, only while this node holds it (when another node took it over, this node
    /// leaves it).
    func saveShared(_ job: UpdateJob, in shared: any JobStore) async {
        do {
            let saved = try await shared.saveJob(Self.record(job), owner: node, lease: lease)
            if !saved { lose(job.id) }
        } catch {
            logger.error(
                "cannot save a job's progress in the database", metadata: ["job": "\(job.id)", "error": "\(LogText.error(error))"])
        }
    }

    /// Saves an upload's job that ended, and removes its upload (unless kept for ``JobLimits/uploadRetention``).
    func finishShared(_ job: UpdateJob, in shared: any JobStore) async {
        await saveShared(job, in: shared)
        guard !isLost(job.id) else {
            live.withLock { $0[job.id] = nil }
            return
        }
        live.withLock { $0[job.id] = job }
        if job.state == .failed || limits.uploadRetention == .zero {
            folder.removeUpload(job.id)
            do {
                try await shared.removeJobUploads(id: job.id, endedBefore: nil)
            } catch {
                logger.error(
                    "cannot remove an ended job's upload from the database",
                    metadata: ["job": "\(job.id)", "error": "\(LogText.error(error))"])
            }
        }
        logger.info(
            "job \(job.state.rawValue)",
            metadata: ["job": "\(job.id)", "changed": "\(job.changed)", "unchanged": "\(job.unchanged)", "failed": "\(job.failed)"])
    }

    /// Writes a chunk's failures into the database (a failure written already by a node that ran the chunk before
    /// stays as it was).
    func recordShared(_ failures: [JSONValue], lines: [Int], of job: inout UpdateJob, in shared: any JobStore) async {
        let phase = job.phase?.rawValue ?? ""
        let rows = zip(failures, lines).map { SharedJobFailure(phase: phase, line: $1, json: JSONWriter.string($0, style: .compact)) }
        do {
            try await shared.appendJobFailures(id: job.id, rows)
            job.failuresWritten += rows.count
        } catch {
            logger.error(
                "cannot write a job's failures; they are counted", metadata: ["job": "\(job.id)", "error": "\(LogText.error(error))"])
        }
    }

    func lose(_ id: String) {
        held.withLock { _ = $0.remove(id) }
        lost.withLock { _ = $0.insert(id) }
        logger.warning("another node took the job over (this node did not renew its lease in time)", metadata: ["job": "\(id)"])
    }

    func isLost(_ id: String) -> Bool { lost.withLock { $0.contains(id) } }

    /// Copies the job's upload from the database into the jobs folder, unless this node has it already (it received
    /// it): written beside and renamed once complete, so a copy cut short is never read.
    func fetchUpload(_ id: String, from shared: any JobStore) async throws {
        let path = folder.upload(id)
        guard !FileManager.default.fileExists(atPath: path) else { return }
        try folder.create()
        let partial = "\(folder.path)/.\(id).fetch.tmp"
        let folderPath = folder.path
        try await files.performAsync {
            let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw ServiceFailure.storage("cannot write a job's upload to the jobs folder: is the disk full?") }
            defer { close(descriptor) }
            let found = try await shared.readJobUpload(id: id) { block throws(ServiceFailure) in
                var done = 0
                while done < block.count {
                    let written = block.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + done, block.count - done) }
                    guard written > 0 else {
                        throw ServiceFailure.storage("cannot write a job's upload to the jobs folder: is the disk full?")
                    }
                    done += written
                }
            }
            guard found else {
                unlink(partial)
                throw ServiceFailure.storage("the job's upload is gone from the database")
            }
            guard fsync(descriptor) == 0, rename(partial, path) == 0, FileIO.syncFolder(folderPath) == 0 else {
                unlink(partial)
                throw ServiceFailure.storage("cannot write a job's upload to the jobs folder: is the disk full?")
            }
        }
    }

    /// Renews the leases of the jobs this node holds, and, when it holds none, takes over the oldest job whose node
    /// stopped renewing; four times a lease, until cancelled.
    func tend(_ shared: any JobStore) async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: lease / 4)
            } catch {
                return
            }
            for id in held.withLock({ $0 }) {
                do {
                    if try await !shared.renewJobLease(id: id, owner: node, lease: lease) { lose(id) }
                } catch {
                    logger.warning("cannot renew a job's lease", metadata: ["job": "\(id)", "error": "\(LogText.error(error))"])
                }
            }
            guard held.withLock({ $0.isEmpty }), !Task.isShuttingDownGracefully else { continue }
            await takeOver(from: shared)
        }
    }

    /// Releases the leases of the jobs this node still holds (queued, or stopped after a chunk) as it stops gracefully,
    /// after their progress was saved: another node takes them over at once instead of when the leases end.
    func release(_ ids: Set<String>, in shared: any JobStore) async {
        for id in ids.sorted() {
            do {
                try await shared.releaseJobLease(id: id, owner: node)
                logger.notice("released a job's lease for another node to go on", metadata: ["job": "\(id)"])
            } catch {
                logger.warning(
                    "cannot release a job's lease; another node goes on when it ends",
                    metadata: ["job": "\(id)", "error": "\(LogText.error(error))"])
            }
        }
        held.withLock { $0.subtract(ids) }
    }

    /// A job of any node as it stands now (with a fleet's store, as the database has it); nil when there is none.
    public func status(_ id: String) async -> UpdateJob? {
        if let shared, JobFolder.isJobID(id), let record = try? await shared.sharedJob(id: id), let job = Self.job(record) {
            return job
        }
        return job(id)
    }

    /// Every job, newest first: of every node with a fleet's store (the newest 1000), else this node's.
    public func allJobs() async -> [UpdateJob] {
        guard let shared, let records = try? await shared.sharedJobs(limit: 1000) else { return jobs() }
        return records.compactMap(Self.job)
    }

    /// The job's kept failures, as JSON Lines, a piece at a time (64 KiB from the failures file, or 500 failures from
    /// the database).
    func forEachFailurePiece(_ id: String, _ body: ([UInt8]) async throws -> Void) async throws {
        guard let shared else {
            guard let file = failures(id) else { return }
            defer { try? file.close() }
            while let piece = try file.read(upToCount: 64 << 10), !piece.isEmpty { try await body([UInt8](piece)) }
            return
        }
        var offset = 0
        while true {
            let lines = try await shared.jobFailures(id: id, offset: offset, limit: 500)
            guard !lines.isEmpty else { return }
            try await body(Array(lines.map { $0 + "\n" }.joined().utf8))
            offset += lines.count
        }
    }
}
