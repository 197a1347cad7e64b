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
        guard var job = job(id), job.state == .running else { return }
        do {
            switch job.kind {
            case .updates: try await applyUpload(&job)
            case .template: try await republish(&job)
            }
            guard !Task.isShuttingDownGracefully else { return }  // unfinished: the next start goes on
            job.state = .finished
        } catch {
            job.state = .failed
            job.error = "\(error)"
            logger.error("job stopped", metadata: ["job": "\(id)", "error": "\(error)"])
        }
        job.finishedAt = Date()
        save(job)
        logger.info(
            "job \(job.state.rawValue)",
            metadata: ["job": "\(id)", "changed": "\(job.changed)", "unchanged": "\(job.unchanged)", "failed": "\(job.failed)"])
    }

    private func save(_ job: UpdateJob) {
        do {
            try folder.save(job)
        } catch {
            logger.error("cannot save a job's progress", metadata: ["job": "\(job.id)", "error": "\(error)"])
        }
        live.withLock { $0[job.id] = job }
    }

    /// The upload's lines from where the job stands, a chunk at a time.
    private func applyUpload(_ job: inout UpdateJob) async throws {
        let reader = try JobLineReader(path: folder.upload(job.id), offset: job.offset)
        while !Task.isShuttingDownGracefully {
            var lines: [(number: Int, line: Result<BulkUpdateLine, LineFailure>)] = []
            var end = job.offset
            while lines.count < chunk, let (line, after) = reader.next() {
                end = after
                let number = job.done + lines.count + 1
                switch line {
                case .text(let bytes) where bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }): job.done += 1  // blank
                case .text(let bytes): lines.append((number, BulkUpdateLine.parse(bytes)))
                case .tooLong: lines.append((number, .failure(LineFailure("the line is longer than \(JobLineReader.maximumLine) bytes"))))
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
            outcomes += await BoundedConcurrency.map(Array(byPass.values), width: concurrency) { group in
                var results: [(Int, String?, Outcome)] = []
                for (number, line) in group { results.append((number, line.serialNumber, await self.apply(line))) }
                return results
            }.flatMap { $0 }
            try record(outcomes, in: &job)
            job.offset = end
            save(job)
        }
    }

    private func apply(_ line: BulkUpdateLine) async -> Outcome {
        do {
            let result = try await updates.update(
                passTypeIdentifier: line.passTypeIdentifier, serialNumber: line.serialNumber, data: line.data, voided: line.voided,
                images: line.images, signs: false)
            return result.changed == true ? .changed(pushes: result.queuedPushes ?? 0) : .unchanged
        } catch let failure as ServiceFailure where failure == .notFound {
            return .failed(LineFailure("no pass \(line.passTypeIdentifier)/\(line.serialNumber)", serial: line.serialNumber))
        } catch let failure as ServiceFailure {
            return .failed(LineFailure(failure.message ?? failure.description, serial: line.serialNumber))
        } catch {
            return .failed(LineFailure("not stored: \(error)", serial: line.serialNumber))
        }
    }

    /// Every pass of the template after where the job stands, a chunk at a time.
    private func republish(_ job: inout UpdateJob) async throws {
        guard let template = job.template else { return }
        let data = job.data
        while !Task.isShuttingDownGracefully {
            let keys = try await store.passKeys(template: template, after: job.after, limit: chunk)
            guard let last = keys.last else { return }
            let first = job.done + 1
            let outcomes = await BoundedConcurrency.map(Array(keys.enumerated()), width: concurrency) { pair in
                (first + pair.offset, pair.element.serialNumber, await self.republish(pair.element, data: data))
            }
            try record(outcomes, in: &job)
            job.after = last
            save(job)
        }
    }

    private func republish(_ key: PassKey, data: JSONObject?) async -> Outcome {
        do {
            if let data {
                let result = try await updates.update(
                    passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber, data: data, voided: nil, signs: false)
                if result.changed == true { return .changed(pushes: result.queuedPushes ?? 0) }
            }
            return .changed(pushes: try await updates.republish(key))
        } catch let failure as ServiceFailure {
            return .failed(LineFailure(failure.message ?? failure.description, serial: key.serialNumber))
        } catch {
            return .failed(LineFailure("not stored: \(error)", serial: key.serialNumber))
        }
    }

    /// Counts a chunk's outcomes and writes its failures (before the state that counts them).
    private func record(_ outcomes: [(line: Int, serial: String?, outcome: Outcome)], in job: inout UpdateJob) throws {
        var failures: [JSONValue] = []
        for (line, serial, outcome) in outcomes.sorted(by: { $0.line < $1.line }) {
            switch outcome {
            case .changed(let pushes):
                job.changed += 1
                job.pushesQueued += pushes
            case .unchanged: job.unchanged += 1
            case .failed(let failure):
                job.failed += 1
                failures.append([
                    "line": .number(JSONNumber(line)), "serialNumber": serial.map(JSONValue.string) ?? .null,
                    "reason": .string(failure.reason),
                ])
            }
        }
        try folder.appendFailures(job.id, failures)
        job.done += outcomes.count
    }
}
