import Foundation
import Logging
import Passmint
import PassmintStore
import ServiceLifecycle
import Synchronization

/// Applying a job, a chunk at a time.
extension UpdateJobService {
    /// What became of one line or pass.
    enum Outcome: Sendable {
        case changed(pushes: Int)
        case unchanged
        case failed(LineFailure)
    }

    func execute(_ id: String) async {
        var stopping = false
        defer { if !stopping { held.withLock { _ = $0.remove(id) } } }
        guard var job = job(id), job.state == .running else { return }
        do {
            switch job.kind {
            case .updates: try await applyUpload(&job)
            case .template: try await publish(&job)
            }
            guard !Task.isShuttingDownGracefully else {
                // Unfinished: the next start (or another node) goes on, once `run` released the lease.
                stopping = true
                return
            }
            guard !isLost(id) else {  // another node took it over and goes on
                live.withLock { $0[id] = nil }
                return
            }
            job.state = .finished
        } catch {
            job.state = .failed
            job.error = (error as? ServiceFailure).map { $0.message ?? $0.description } ?? "\(error)"
            logger.error("job stopped", metadata: ["job": "\(id)", "error": "\(LogText.error(error))"])
        }
        job.finishedAt = Date()
        job.chunkStartedAt = nil
        await finish(job)
    }

    /// Saves the job's progress in the database, only while this node holds it; a state that cannot be saved is logged
    /// and the job goes on.
    func save(_ job: UpdateJob) async {
        await saveShared(job)
        live.withLock { $0[job.id] = job }
    }

    /// Saves an ended job and removes this node's copy of its upload, and the database's unless kept for
    /// ``JobLimits/uploadRetention`` (a failed job's at once).
    private func finish(_ job: UpdateJob) async {
        await saveShared(job)
        candidates.withLock { $0[job.id] = nil }
        folder.removeUpload(job.id)
        guard !isLost(job.id) else {
            live.withLock { $0[job.id] = nil }
            return
        }
        live.withLock { $0[job.id] = job }
        if job.state == .failed || limits.uploadRetention == .zero {
            do {
                try await store.removeJobUploads(id: job.id, endedBefore: nil, abandonedFor: nil)
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

    /// The upload's lines from where the job stands, a chunk at a time (at most ``JobLimits/chunkLines`` lines and
    /// about ``JobLimits/chunkBytes`` bytes of them in memory).
    private func applyUpload(_ job: inout UpdateJob) async throws {
        try await fetchUpload(job.id)
        guard let reader = JSONLinesReader(path: folder.upload(job.id), offset: job.offset) else {
            throw ServiceFailure.storage("the upload is gone from the jobs folder")
        }
        // A chunk a killed service was applying: its lines applied already count as changed the second time too.
        var replaying = job.chunkStartedAt.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
        if job.chunkStartedAt == nil {
            job.chunkStartedAt = Date()
            await save(job)
        }
        while !Task.isShuttingDownGracefully && !isLost(job.id) {
            var lines: [(number: Int, line: Result<BulkUpdateLine, LineFailure>)] = []
            var end = job.offset
            var bytes = 0
            while lines.count < limits.chunkLines, bytes < limits.chunkBytes, let (line, after) = reader.next() {
                end = after
                let number = job.done + lines.count + 1
                switch line {
                case let blank where blank.isBlank: job.done += 1
                case .text(let text):
                    bytes += text.count
                    lines.append((number, BulkUpdateLine.parse(text, maximumValue: limits.maximumValueBytes)))
                case .tooLong:
                    let limit = JSONLinesReader.maximumLineBytes
                    lines.append((number, .failure(LineFailure("the line is longer than \(limit) bytes: split its changes"))))
                }
            }
            if lines.isEmpty && end == job.offset { return }
            // The lines of one pass in order; different passes at once.
            var byPass: [PassKey: [(Int, BulkUpdateLine)]] = [:]
            var outcomes: [(Int, String?, Outcome)] = []
            for (number, line) in lines {
                switch line {
                case .success(let line):
                    byPass[PassKey(passTypeIdentifier: line.passTypeIdentifier, serialNumber: line.serialNumber), default: []].append(
                        (number, line))
                case .failure(let failure): outcomes.append((number, failure.serialNumber, .failed(failure)))
                }
            }
            lines.removeAll()
            let since = replaying
            replaying = nil
            // The chunk's passes in one read; each pass's first line is made from it (a pass changed since is read
            // again when its commit finds the version stale).
            let read = await readPasses(byPass.filter { !($0.value.first?.1.isOrder ?? true) }.map(\.key))
            outcomes += await BoundedConcurrency.map(Array(byPass), width: concurrency) { key, group in
                var results: [(Int, String?, Outcome)] = []
                for (index, (number, line)) in group.enumerated() {
                    let outcome = await self.apply(line, replayingSince: since, read: index == 0 ? read[key] : nil)
                    results.append((number, line.isOrder ? nil : line.serialNumber, outcome))
                }
                return results
            }.flatMap { $0 }
            await record(outcomes, in: &job)
            job.offset = end
            job.chunkStartedAt = Date()
            await save(job)
        }
    }

    /// The change a `PATCH` of the line's pass makes (``UpdateService``, checked but not signed), or of its order
    /// (status transitions checked).
    ///
    /// `replayingSince`: the line may have been applied by a service killed since then; found as it would leave it,
    /// it counts as changed when its pass (or order) changed since then.
    private func apply(_ line: BulkUpdateLine, replayingSince: Date?, read: StoredPass?) async -> Outcome {
        beforeEachItem.withLock { $0 }?()
        let (type, id) = (line.passTypeIdentifier, line.serialNumber)
        func failed(_ message: String) -> Outcome {
            .failed(line.isOrder ? LineFailure(message, order: id) : LineFailure(message, serial: id))
        }
        do {
            let result = try await updates.update(
                line.isOrder ? .order : .pass, passTypeIdentifier: type, serialNumber: id, data: line.data, voided: line.voided,
                images: line.images, signs: false, read: line.isOrder ? nil : read, unvoid: line.unvoid)
            if result.changed == true { return .changed(pushes: result.queuedPushes ?? 0) }
            if let replayingSince, result.pass.updatedAt >= replayingSince { return .changed(pushes: result.registrations) }
            return .unchanged
        } catch let failure as ServiceFailure where failure == .notFound {
            return failed("no \(line.isOrder ? "order" : "pass") \(type)/\(id)")
        } catch let failure as ServiceFailure {
            return failed(failure.message ?? failure.description)
        } catch {
            return failed("not stored: \(error)")
        }
    }

    /// The stored passes of `keys`; none when the read fails (each line then reads its own pass and meets the
    /// failure itself).
    private func readPasses(_ keys: [PassKey]) async -> [PassKey: StoredPass] {
        do {
            return try await store.passes(keys)
        } catch {
            logger.warning("cannot read a chunk's passes at once; each line reads its own", metadata: ["error": "\(LogText.error(error))"])
            return [:]
        }
    }

    /// Counts a chunk's outcomes and writes its failures (before the state that counts them): the first ones into the
    /// state too, at most ``JobLimits/failuresKept`` into the database, and none when the disk is down to its reserve
    /// (then they are counted only).
    func record(_ outcomes: [(line: Int, serial: String?, outcome: Outcome)], in job: inout UpdateJob) async {
        var failures: [JSONValue] = []
        var lines: [Int] = []
        for (line, serial, outcome) in outcomes.sorted(by: { $0.line < $1.line }) {
            switch outcome {
            case .changed(let pushes):
                job.changed += 1
                job.pushesQueued += pushes
            case .unchanged: job.unchanged += 1
            case .failed(let failure):
                job.failed += 1
                var entry: JSONObject = ["line": .number(JSONNumber(line)), "reason": .string(Self.cut(failure.reason))]
                if let serial = serial ?? failure.serialNumber { entry["serialNumber"] = .string(serial) }
                if let order = failure.orderIdentifier { entry["orderIdentifier"] = .string(order) }
                if job.firstFailures.count < limits.failuresInState { job.firstFailures.append(.object(entry)) }
                if job.failuresWritten + failures.count < limits.failuresKept {
                    failures.append(.object(entry))
                    lines.append(line)
                }
            }
        }
        job.done += outcomes.count
        guard !failures.isEmpty else { return }
        guard folder.hasRoom(reserve: limits.diskReserve) else {
            logger.warning("the disk is down to its reserve: failures are counted, not written", metadata: ["job": "\(job.id)"])
            return
        }
        await recordShared(failures, lines: lines, of: &job)
    }

    /// A failure's reason, cut to 300 characters.
    static func cut(_ reason: String) -> String {
        reason.count > 300 ? String(reason.prefix(300)) + "…" : reason
    }
}
