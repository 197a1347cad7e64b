import Foundation
import Synchronization

/// Runs write closures on one connection on a dedicated thread, committing every closure waiting at the start of a
/// transaction in that one transaction (group commit). Each closure runs in its own savepoint, so one failing does
/// not undo the others; callers return only after the commit.
///
/// The same thread watches for commits made by other processes (`passmint batch --register` writing into the file
/// of a running service): every ``externalCheckInterval`` it reads SQLite's `PRAGMA data_version`, which moves only
/// when another connection committed, and bumps ``generation`` when it moved, so cached reads never outlive such a
/// change by more than that interval.
final class GroupCommitWriter: @unchecked Sendable {
    // @unchecked: `connection` is touched only by the writer thread; `pending` only under `condition`.
    private struct Job {
        /// Runs the work; returns what to do after the commit (or after a failed commit), nil when it already failed.
        /// A job whose work threw is answered with its error after the commit too.
        var run: (SQLiteConnection) -> (committed: () -> Void, failed: (any Error) -> Void)?
        var cancel: (any Error) -> Void
    }

    /// What the writer thread owns; the thread keeps it alive and ends when the writer is released.
    private final class State: @unchecked Sendable {
        let connection: SQLiteConnection
        let condition = NSCondition()
        var pending: [Job] = []
        var stopped = false
        /// Bumped after each commit, before any writer of that commit is answered, and when another process committed.
        let generation = Atomic<UInt64>(0)
        /// Rung after each move of `generation`.
        let changes = ChangeSignal()
        /// SQLite's `data_version` of the writer connection when last read (changes only with other connections' commits).
        var dataVersion: Int64?
        var lastExternalCheck = ContinuousClock.now
        init(connection: SQLiteConnection) { self.connection = connection }
    }

    private let state: State

    /// Bumped after each commit, before the writers in it return: a read that starts after a write returned sees a
    /// different value than one that started before it.
    var generation: UInt64 { state.generation.load(ordering: .acquiring) }

    /// Returns once ``generation`` differs from `previous`, or the task is cancelled.
    func changed(since previous: UInt64) async {
        await state.changes.wait { generation != previous }
    }

    init(connection: SQLiteConnection) {
        let state = State(connection: connection)
        self.state = state
        let thread = Thread { GroupCommitWriter.loop(state) }
        thread.name = "passmint-sqlite-writer"
        thread.start()
    }

    deinit {
        state.condition.lock()
        state.stopped = true
        state.condition.signal()
        state.condition.unlock()
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let job = Job(
                run: { db in
                    do {
                        // Prepared once and kept (`query`), not parsed again for every write as `execute` would.
                        try db.query("SAVEPOINT job")
                    } catch {
                        continuation.resume(throwing: error)
                        return nil
                    }
                    do {
                        let value = try body(db)
                        try db.query("RELEASE job")
                        return (committed: { continuation.resume(returning: value) }, failed: { continuation.resume(throwing: $0) })
                    } catch {
                        try? db.execute("ROLLBACK TO job; RELEASE job")
                        // Answered after the group's commit, like the others: a change refused as stale because of
                        // an earlier job of this group then finds that job's change when it reads the pass again.
                        return (committed: { continuation.resume(throwing: error) }, failed: { _ in continuation.resume(throwing: error) })
                    }
                },
                cancel: { continuation.resume(throwing: $0) })
            state.condition.lock()
            state.pending.append(job)
            state.condition.signal()
            state.condition.unlock()
        }
    }

    /// How often the writer thread looks for other processes' commits (seconds).
    static let externalCheckInterval = 0.05

    /// Bumps the generation when another connection (another process) committed since the last look.
    private static func noticeExternalCommits(_ state: State) {
        state.lastExternalCheck = .now
        var version: Int64?
        try? state.connection.query("PRAGMA data_version") { version = $0.integer(0) }
        guard let version else { return }
        if let previous = state.dataVersion, previous != version {
            state.generation.add(1, ordering: .releasing)
            state.changes.ring()
        }
        state.dataVersion = version
    }

    private static func loop(_ state: State) {
        let connection = state.connection
        noticeExternalCommits(state)
        while true {
            state.condition.lock()
            while state.pending.isEmpty && !state.stopped {
                if !state.condition.wait(until: Date(timeIntervalSinceNow: externalCheckInterval)) { break }
            }
            if state.pending.isEmpty && state.stopped {
                state.condition.unlock()
                return
            }
            let jobs = state.pending
            state.pending.removeAll()
            state.condition.unlock()
            if state.lastExternalCheck.duration(to: .now) >= .seconds(externalCheckInterval) { noticeExternalCommits(state) }
            if jobs.isEmpty { continue }

            do {
                try connection.execute("BEGIN IMMEDIATE")
            } catch {
                for job in jobs { job.cancel(error) }
                continue
            }
            let outcomes = jobs.compactMap { $0.run(connection) }
            do {
                try connection.execute("COMMIT")
                state.generation.add(1, ordering: .releasing)
                state.changes.ring()
                for outcome in outcomes { outcome.committed() }
            } catch {
                try? connection.execute("ROLLBACK")
                state.generation.add(1, ordering: .releasing)
                state.changes.ring()
                for outcome in outcomes { outcome.failed(error) }
            }
        }
    }
}
