public import Foundation

/// Bulk-update jobs on SQLite (``JobStore``, migration 16), in the same tables as on PostgreSQL: a job's upload in
/// blocks, its state after every chunk and a lease (`owner`, `lease_until`). The one writer claims a job in one
/// statement, so two workers (two processes on the file, or a restart racing a receiver) never hold the same job.
extension SQLitePassStore: JobStore {
    static let jobColumns = "id, kind, running, state, created_at, finished_at"

    static func job(_ row: SQLiteConnection.Row) -> SharedJob {
        SharedJob(
            id: row.text(0) ?? "", kind: row.text(1) ?? "", running: row.integer(2) != 0, json: row.text(3) ?? "",
            createdAt: PassEvent.date(milliseconds: row.integer(4)),
            finishedAt: row.optionalInteger(5).map { PassEvent.date(milliseconds: $0) })
    }

    /// The upload's blocks are written a block a write (the writer is never held for a whole upload), the job last: a
    /// service killed in between leaves blocks with no job, which ``removeJobUploads(id:endedBefore:abandonedFor:)``
    /// removes. A job whose blocks were removed so (its receiver stalled that long) is refused.
    public func insertJob(_ job: SharedJob, owner: String, lease: Duration, nextBlock: (() throws -> [UInt8]?)?) async throws {
        var (position, blocks): (Int64, Int64) = (0, 0)
        while let block = try nextBlock?() {
            let at = position
            try await writer.write { db in
                try db.query(
                    "INSERT INTO update_job_uploads (job_id, position, bytes, written_at) VALUES (?, ?, ?, ?)",
                    [.text(job.id), .integer(at), .blob(block), .integer(PassEvent.milliseconds(self.clock()))])
            }
            position += Int64(block.count)
            blocks += 1
        }
        try await writer.write { [blocks] db in
            var stored: Int64 = 0
            try db.query("SELECT count(*) FROM update_job_uploads WHERE job_id = ?", [.text(job.id)]) { stored = $0.integer(0) }
            guard stored == blocks else {
                throw PassStoreError(
                    .database, "the upload of job \(job.id) was removed as it was written (its writer stalled a lease): send it again")
            }
            let until = job.running ? PassEvent.milliseconds(self.clock()) + lease.milliseconds : 0
            try db.query(
                """
                INSERT INTO update_jobs (id, kind, running, state, owner, lease_until, created_at, finished_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(job.id), .text(job.kind), .integer(job.running ? 1 : 0), .text(job.json), .text(owner), .integer(until),
                    .integer(PassEvent.milliseconds(job.createdAt)), job.finishedAt.map { .integer(PassEvent.milliseconds($0)) } ?? .null,
                ])
        }
    }

    public func saveJob(_ job: SharedJob, owner: String?, lease: Duration) async throws -> Bool {
        try await writer.write { db in
            let finished: SQLiteConnection.Value = job.finishedAt.map { .integer(PassEvent.milliseconds($0)) } ?? .null
            let values: [SQLiteConnection.Value] = [.text(job.json), .integer(job.running ? 1 : 0), finished]
            if let owner {
                let until = job.running ? PassEvent.milliseconds(self.clock()) + lease.milliseconds : 0
                try db.query(
                    "UPDATE update_jobs SET state = ?, running = ?, finished_at = ?, lease_until = ? WHERE id = ? AND owner = ?",
                    values + [.integer(until), .text(job.id), .text(owner)])
            } else {
                try db.query("UPDATE update_jobs SET state = ?, running = ?, finished_at = ? WHERE id = ?", values + [.text(job.id)])
            }
            return db.changes > 0
        }
    }

    public func renewJobLease(id: String, owner: String, lease: Duration) async throws -> Bool {
        try await writer.write { db in
            let until = PassEvent.milliseconds(self.clock()) + lease.milliseconds
            try db.query(
                "UPDATE update_jobs SET lease_until = ? WHERE id = ? AND owner = ? AND running", [.integer(until), .text(id), .text(owner)])
            return db.changes > 0
        }
    }

    public func releaseJobLease(id: String, owner: String) async throws {
        try await writer.write { db in
            try db.query("UPDATE update_jobs SET lease_until = 0 WHERE id = ? AND owner = ? AND running", [.text(id), .text(owner)])
        }
    }

    public func claimJob(kind: String, owner: String, lease: Duration) async throws -> SharedJob? {
        // Looked at first with a read: a node looks several times a lease.
        let due = try read { db in
            var any = false
            try db.query(
                "SELECT 1 FROM update_jobs WHERE running AND kind = ? AND lease_until <= ? LIMIT 1",
                [.text(kind), .integer(PassEvent.milliseconds(clock()))]
            ) { _ in any = true }
            return any
        }
        guard due else { return nil }
        return try await writer.write { db in
            let now = PassEvent.milliseconds(self.clock())
            var claimed: SharedJob?
            try db.query(
                """
                UPDATE update_jobs SET owner = ?, lease_until = ? WHERE id = (
                    SELECT id FROM update_jobs WHERE running AND kind = ? AND lease_until <= ? ORDER BY created_at LIMIT 1)
                RETURNING \(Self.jobColumns)
                """, [.text(owner), .integer(now + lease.milliseconds), .text(kind), .integer(now)]
            ) { claimed = Self.job($0) }
            return claimed
        }
    }

    public func sharedJob(id: String) async throws -> SharedJob? {
        try read { db in
            var found: SharedJob?
            try db.query("SELECT \(Self.jobColumns) FROM update_jobs WHERE id = ?", [.text(id)]) { found = Self.job($0) }
            return found
        }
    }

    public func sharedJobs(limit: Int) async throws -> [SharedJob] {
        try read { db in
            var jobs: [SharedJob] = []
            try db.query("SELECT \(Self.jobColumns) FROM update_jobs ORDER BY created_at DESC, id LIMIT ?", [.integer(Int64(limit))]) {
                jobs.append(Self.job($0))
            }
            return jobs
        }
    }

    public func readJobUpload(id: String, _ body: ([UInt8]) throws -> Void) async throws -> Bool {
        try read { db in
            var any = false
            try db.query("SELECT bytes FROM update_job_uploads WHERE job_id = ? ORDER BY position", [.text(id)]) { row in
                any = true
                try body(row.blob(0))
            }
            return any
        }
    }

    public func removeJobUploads(id: String?, endedBefore: Date?, abandonedFor: Duration?) async throws {
        try await writer.write { db in
            if let id { try db.query("DELETE FROM update_job_uploads WHERE job_id = ?", [.text(id)]) }
            if let endedBefore {
                try db.query(
                    """
                    DELETE FROM update_job_uploads WHERE job_id IN (
                        SELECT id FROM update_jobs WHERE NOT running AND finished_at <= ?)
                    """, [.integer(PassEvent.milliseconds(endedBefore))])
            }
            if let abandonedFor {
                try db.query(
                    """
                    DELETE FROM update_job_uploads WHERE job_id IN (
                        SELECT job_id FROM update_job_uploads u WHERE NOT EXISTS (SELECT 1 FROM update_jobs j WHERE j.id = u.job_id)
                        GROUP BY job_id HAVING max(written_at) <= ?)
                    """, [.integer(PassEvent.milliseconds(self.clock()) - abandonedFor.milliseconds)])
            }
        }
    }

    public func appendJobFailures(id: String, _ failures: [SharedJobFailure]) async throws {
        guard !failures.isEmpty else { return }
        try await writer.write { db in
            for failure in failures {
                try db.query(
                    "INSERT INTO update_job_failures (job_id, phase, line, failure) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    [.text(id), .text(failure.phase), .integer(Int64(failure.line)), .text(failure.json)])
            }
        }
    }

    public func jobFailures(id: String, kept: Bool, offset: Int, limit: Int) async throws -> [String] {
        try read { db in
            var failures: [String] = []
            try db.query(
                "SELECT failure FROM update_job_failures WHERE job_id = ? AND (phase = ?) = ? ORDER BY seq LIMIT ? OFFSET ?",
                [.text(id), .text(SharedJobFailure.kept), .integer(kept ? 1 : 0), .integer(Int64(limit)), .integer(Int64(offset))]
            ) { failures.append($0.text(0) ?? "") }
            return failures
        }
    }
}
