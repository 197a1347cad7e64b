public import Foundation
import Logging
public import PassmintStore
import PostgresNIO

/// Bulk-update jobs kept in the database (``JobStore``): a job's upload in blocks, its state after every chunk, and a
/// lease (`owner`, `lease_until`) that the node running it renews; a node claims a running job whose lease ended with
/// `FOR UPDATE SKIP LOCKED`, so two nodes never take over the same job at once. None of this changes a pass, so none of
/// it moves the change feed's generation.
extension PostgresPassStore: JobStore {
    static func leaseEnd(_ now: Date, _ lease: Duration) -> Int64 { PassEvent.milliseconds(now) + lease.milliseconds }

    typealias JobRow = (String, String, Bool, String, Int64, Int64?)

    static func job(_ row: JobRow) -> SharedJob {
        SharedJob(
            id: row.0, kind: row.1, running: row.2, json: row.3, createdAt: PassEvent.date(milliseconds: row.4),
            finishedAt: row.5.map { PassEvent.date(milliseconds: $0) })
    }

    static let jobColumns = "id, kind, running, state, created_at, finished_at"

    public func insertJob(_ job: SharedJob, owner: String, lease: Duration, nextBlock: (() throws -> [UInt8]?)?) async throws {
        let (created, finished) = (PassEvent.milliseconds(job.createdAt), job.finishedAt.map(PassEvent.milliseconds))
        try await clients.withTransaction(logger: logger) { connection in
            var position: Int64 = 0
            while let block = try nextBlock?() {
                try await connection.query(
                    """
                    INSERT INTO update_job_uploads (job_id, position, bytes, written_at)
                    VALUES (\(job.id), \(position), \(Data(block)), \(PassEvent.milliseconds(clock())))
                    """,
                    logger: logger)
                position += Int64(block.count)
            }
            let until = job.running ? Self.leaseEnd(clock(), lease) : 0
            try await connection.query(
                """
                INSERT INTO update_jobs (id, kind, running, state, owner, lease_until, created_at, finished_at)
                VALUES (\(job.id), \(job.kind), \(job.running), \(job.json), \(owner), \(until), \(created), \(finished))
                """, logger: logger)
        }
    }

    public func saveJob(_ job: SharedJob, owner: String?, lease: Duration) async throws -> Bool {
        let finished = job.finishedAt.map(PassEvent.milliseconds)
        let until = job.running ? Self.leaseEnd(clock(), lease) : 0
        let rows: PostgresRowSequence
        if let owner {
            rows = try await clients.query(
                """
                UPDATE update_jobs SET state = \(job.json), running = \(job.running), finished_at = \(finished), lease_until = \(until)
                WHERE id = \(job.id) AND owner = \(owner) RETURNING 1
                """, logger: logger)
        } else {
            rows = try await clients.query(
                """
                UPDATE update_jobs SET state = \(job.json), running = \(job.running), finished_at = \(finished)
                WHERE id = \(job.id) RETURNING 1
                """, logger: logger)
        }
        for try await _ in rows { return true }
        return false
    }

    public func renewJobLease(id: String, owner: String, lease: Duration) async throws -> Bool {
        let until = Self.leaseEnd(clock(), lease)
        let rows = try await clients.query(
            "UPDATE update_jobs SET lease_until = \(until) WHERE id = \(id) AND owner = \(owner) AND running RETURNING 1", logger: logger)
        for try await _ in rows { return true }
        return false
    }

    public func releaseJobLease(id: String, owner: String) async throws {
        try await clients.query(
            "UPDATE update_jobs SET lease_until = 0 WHERE id = \(id) AND owner = \(owner) AND running", logger: logger)
    }

    public func claimJob(kind: String, owner: String, lease: Duration) async throws -> SharedJob? {
        // Looked at first with a read: every node looks several times a lease.
        let now = PassEvent.milliseconds(clock())
        let due = try await clients.query(
            "SELECT 1 FROM update_jobs WHERE running AND kind = \(kind) AND lease_until <= \(now) LIMIT 1", logger: logger)
        var any = false
        for try await _ in due { any = true }
        guard any else { return nil }
        let until = Self.leaseEnd(clock(), lease)
        let rows = try await clients.query(
            """
            UPDATE update_jobs j SET owner = \(owner), lease_until = \(until) FROM (
                SELECT id FROM update_jobs WHERE running AND kind = \(kind) AND lease_until <= \(now)
                ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED) c
            WHERE j.id = c.id RETURNING j.id, j.kind, j.running, j.state, j.created_at, j.finished_at
            """, logger: logger)
        for try await row in rows.decode(JobRow.self) { return Self.job(row) }
        return nil
    }

    public func sharedJob(id: String) async throws -> SharedJob? {
        let rows = try await clients.query("SELECT \(unescaped: Self.jobColumns) FROM update_jobs WHERE id = \(id)", logger: logger)
        for try await row in rows.decode(JobRow.self) { return Self.job(row) }
        return nil
    }

    public func sharedJobs(limit: Int) async throws -> [SharedJob] {
        let rows = try await clients.query(
            "SELECT \(unescaped: Self.jobColumns) FROM update_jobs ORDER BY created_at DESC, id LIMIT \(limit)", logger: logger)
        var jobs: [SharedJob] = []
        for try await row in rows.decode(JobRow.self) { jobs.append(Self.job(row)) }
        return jobs
    }

    public func readJobUpload(id: String, _ body: ([UInt8]) throws -> Void) async throws -> Bool {
        try await client.withConnection { connection in
            let rows = try await connection.query(
                "SELECT bytes FROM update_job_uploads WHERE job_id = \(id) ORDER BY position", logger: logger)
            var any = false
            for try await block in rows.decode(Data.self) {
                any = true
                try body([UInt8](block))
            }
            return any
        }
    }

    /// Blocks with no job (``removeJobUploads(id:endedBefore:abandonedFor:)``) are left only by an older version or
    /// SQLite: here an upload is stored in the transaction with its job.
    public func removeJobUploads(id: String?, endedBefore: Date?, abandonedFor: Duration?) async throws {
        if let id {
            try await clients.query("DELETE FROM update_job_uploads WHERE job_id = \(id)", logger: logger)
        }
        if let endedBefore {
            let before = PassEvent.milliseconds(endedBefore)
            try await clients.query(
                """
                DELETE FROM update_job_uploads u USING update_jobs j
                WHERE u.job_id = j.id AND NOT j.running AND j.finished_at <= \(before)
                """, logger: logger)
        }
        if let abandonedFor {
            let before = PassEvent.milliseconds(clock()) - abandonedFor.milliseconds
            try await clients.query(
                """
                DELETE FROM update_job_uploads WHERE job_id IN (
                    SELECT job_id FROM update_job_uploads u WHERE NOT EXISTS (SELECT 1 FROM update_jobs j WHERE j.id = u.job_id)
                    GROUP BY job_id HAVING max(written_at) <= \(before))
                """, logger: logger)
        }
    }

    public func appendJobFailures(id: String, _ failures: [SharedJobFailure]) async throws {
        guard !failures.isEmpty else { return }
        try await clients.query(
            """
            INSERT INTO update_job_failures (job_id, phase, line, failure)
            SELECT \(id), p, l, f FROM UNNEST(\(failures.map(\.phase))::text[], \(failures.map { Int64($0.line) })::bigint[],
                \(failures.map(\.json))::text[]) AS t(p, l, f)
            ON CONFLICT (job_id, phase, line) DO NOTHING
            """, logger: logger)
    }

    public func jobFailures(id: String, kept: Bool, offset: Int, limit: Int) async throws -> [String] {
        let rows = try await clients.query(
            """
            SELECT failure FROM update_job_failures WHERE job_id = \(id) AND (phase = \(SharedJobFailure.kept)) = \(kept)
            ORDER BY seq LIMIT \(limit) OFFSET \(offset)
            """, logger: logger)
        var failures: [String] = []
        for try await failure in rows.decode(String.self) { failures.append(failure) }
        return failures
    }
}
