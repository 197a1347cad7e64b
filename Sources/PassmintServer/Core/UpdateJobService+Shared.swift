import Foundation
import Logging
import Passmint
import PassmintStore
import ServiceLifecycle
import Synchronization

/// Jobs in the store (`JobStore`, on SQLite as on PostgreSQL): an upload is stored in the database with the job before
/// the job is acknowledged, and its progress after every chunk, under a lease this node renews while the job is queued
/// or runs (``tend()``). A job whose lease ended is taken over by the next start or node that looks: it fetches the
/// upload into its own jobs folder and goes on from the last chunk saved, replaying that chunk's lines, which change
/// nothing the second time. A node that finds it lost a job (its save is refused) stops it.
extension UpdateJobService {
    /// How big a block of an upload is, in the database.
    static let uploadBlock = 1 << 20

    static func record(_ job: UpdateJob) -> SharedJob {
        SharedJob(
            id: job.id, kind: job.kind.rawValue, running: job.state == .running,
            json: JSONWriter.string(.object(job.json), style: .compact),
            createdAt: job.createdAt, finishedAt: job.finishedAt)
    }

    /// An upload file's blocks, one a call, as the store takes them; nil at its end.
    static func blocks(of file: FileHandle) -> () throws -> [UInt8]? {
        {
            guard let data = try file.read(upToCount: uploadBlock), !data.isEmpty else { return nil }
            return [UInt8](data)
        }
    }

    static func job(_ record: SharedJob) -> UpdateJob? {
        (try? JSONParser.value(Array(record.json.utf8)).objectValue).flatMap(UpdateJob.init(json:))
    }

    /// Stores a new job, with its upload read from the jobs folder a block at a time (on `files`), or a
    /// template-wide change's new version (for the node that takes it over), and holds it.
    func insertShared(_ job: UpdateJob) async throws {
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
                var next = file.map(Self.blocks)
                if let version {
                    var blocks = stride(from: 0, to: version.count, by: Self.uploadBlock).map {
                        Array(version[$0..<min($0 + Self.uploadBlock, version.count)])
                    }.makeIterator()
                    next = { blocks.next() }
                }
                try await self.store.insertJob(Self.record(job), owner: node, lease: lease, nextBlock: next)
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
    func saveShared(_ job: UpdateJob) async {
        do {
            let saved = try await store.saveJob(Self.record(job), owner: node, lease: lease)
            if !saved { lose(job.id) }
        } catch {
            logger.error(
                "cannot save a job's progress in the database", metadata: ["job": "\(job.id)", "error": "\(LogText.error(error))"])
        }
    }

    /// Writes a chunk's failures into the database (a failure written already by a node that ran the chunk before
    /// stays as it was).
    func recordShared(_ failures: [JSONValue], lines: [Int], of job: inout UpdateJob) async {
        let phase = job.phase?.rawValue ?? ""
        let rows = zip(failures, lines).map { SharedJobFailure(phase: phase, line: $1, json: JSONWriter.string($0, style: .compact)) }
        do {
            try await store.appendJobFailures(id: job.id, rows)
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
    func fetchUpload(_ id: String) async throws {
        let path = folder.upload(id)
        guard !FileManager.default.fileExists(atPath: path) else { return }
        try folder.create()
        let partial = "\(folder.path)/.\(id).fetch.tmp"
        let folderPath = folder.path
        try await files.performAsync {
            let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw ServiceFailure.storage("cannot write a job's upload to the jobs folder: is the disk full?") }
            defer { close(descriptor) }
            let found = try await self.store.readJobUpload(id: id) { block throws(ServiceFailure) in
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
    /// stopped renewing (a start looks at once: a job its stopped service released, or whose lease lapsed since a kill),
    /// four times a lease, and once a lease removes the uploads that expired or were abandoned; until cancelled.
    func tend() async {
        var looks = 0
        while !Task.isCancelled {
            for id in held.withLock({ $0 }) {
                do {
                    if try await !store.renewJobLease(id: id, owner: node, lease: lease) { lose(id) }
                } catch {
                    logger.warning("cannot renew a job's lease", metadata: ["job": "\(id)", "error": "\(LogText.error(error))"])
                }
            }
            if held.withLock({ $0.isEmpty }), !Task.isShuttingDownGracefully {
                looks += 1
                if looks % 4 == 0 { await removeExpiredUploads() }  // once a lease
                await takeOver()
            }
            do {
                try await Task.sleep(for: lease / 4)
            } catch {
                return
            }
        }
    }

    /// Releases the leases of the jobs this node still holds (queued, or stopped after a chunk) as it stops gracefully,
    /// after their progress was saved: another node takes them over at once instead of when the leases end.
    func release(_ ids: Set<String>) async {
        for id in ids.sorted() {
            do {
                try await store.releaseJobLease(id: id, owner: node)
                logger.notice("released a job's lease for another node to go on", metadata: ["job": "\(id)"])
            } catch {
                logger.warning(
                    "cannot release a job's lease; another node goes on when it ends",
                    metadata: ["job": "\(id)", "error": "\(LogText.error(error))"])
            }
        }
        held.withLock { $0.subtract(ids) }
    }

    /// A job of any node as it stands now, as the database has it (this node's copy when the database cannot be
    /// read); nil when there is none.
    package func status(_ id: String) async -> UpdateJob? {
        if JobFolder.isJobID(id), let record = try? await store.sharedJob(id: id), let job = Self.job(record) { return job }
        return job(id)
    }

    /// Every job of every node, newest first (the newest 1000); this node's when the database cannot be read.
    package func allJobs() async -> [UpdateJob] {
        guard let records = try? await store.sharedJobs(limit: 1000) else { return jobs() }
        return records.compactMap(Self.job)
    }

    /// The job's kept failures, as JSON Lines, 500 failures at a time.
    func forEachFailurePiece(_ id: String, _ body: ([UInt8]) async throws -> Void) async throws {
        var offset = 0
        while true {
            let lines = try await store.jobFailures(id: id, kept: false, offset: offset, limit: 500)
            guard !lines.isEmpty else { return }
            try await body(Array(lines.map { $0 + "\n" }.joined().utf8))
            offset += lines.count
        }
    }
}
