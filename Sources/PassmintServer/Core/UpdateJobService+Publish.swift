import Foundation
import Logging
import Passmint
import PassmintStore
import ServiceLifecycle
import Synchronization

/// A template-wide change: the new version is checked against the stored passes (a sample first, then all) while they
/// stay at the versions their rows name, then stored (``TemplateCatalog/store(_:named:)``), made the current one, and
/// every pass that fits it is moved to it with a new version. A pass it does not fit stays at the version its row
/// names; a version that fits none of them is refused and every pass stays where it was.
extension UpdateJobService {
    /// Passes checked first: a new version that fits none of them is refused without checking the rest.
    static let sample = 100

    func publish(_ job: inout UpdateJob) async throws {
        guard let name = job.template else { return }
        let resumed = job.phase == .applying
        var target = resumed ? try templates.currentVersion(named: name) : nil  // the version it installed
        if job.phase != .applying {
            let candidate: PassTemplate
            guard let staged = candidates.withLock({ $0[job.id] }) else {  // taken over without the version stored with it
                throw ServiceFailure.storage("the new version of \(name) is not in the database: publish it again")
            }
            candidate = staged
            try await check(&job, name: name, candidate: candidate)
            guard !Task.isShuttingDownGracefully, !isLost(job.id) else { return }
            if job.checked > 0 && job.kept == job.checked {
                throw ServiceFailure.unprocessable(
                    "the new version of \(name) fits none of its \(job.checked) passes (see the failures); the old version stays: fix the template and publish again"
                )
            }
            target = try await install(candidate, named: name, job: job)
            job.phase = .applying
            job.after = nil
            job.chunkStartedAt = Date()
            await save(job)
        }
        guard let target else { return }
        try await republish(&job, name: name, to: target.hash, resumed: resumed)
        if job.checked == 0 {
            job.note = "no pass was issued from template \(name): the new version serves the passes issued from now on"
        } else if job.kept > 0 {
            job.note = "\(job.kept) passes do not fit the new version (see the failures): they keep their last good version"
        }
    }

    /// Checks the new version against every pass of the template after where the job stands, the first
    /// ``sample`` passes first; the passes it does not fit are kept with the job's failures, before the state that counts
    /// them (``SharedJobFailure/kept``).
    private func check(_ job: inout UpdateJob, name: String, candidate: PassTemplate) async throws {
        let data = job.data
        while !Task.isShuttingDownGracefully && !isLost(job.id) {
            let limit = job.checked == 0 ? min(Self.sample, limits.chunkLines) : limits.chunkLines
            let keys = try await store.passKeys(template: name, after: job.after, limit: limit)
            guard let last = keys.last else { return }
            let first = job.checked + 1
            let results = await BoundedConcurrency.map(Array(keys.enumerated()), width: concurrency) { pair in
                (first + pair.offset, pair.element, await self.check(pair.element, data: data, against: candidate))
            }
            let misfits = results.compactMap { result in result.2.map { (result.0, result.1, $0) } }.sorted { $0.0 < $1.0 }
            let kept = misfits.map { SharedJobFailure(phase: SharedJobFailure.kept, line: $0.0, json: Self.keptLine($0.1)) }
            do {
                try await store.appendJobFailures(id: job.id, kept)
            } catch {
                logger.error(
                    "cannot keep the passes a new version does not fit", metadata: ["job": "\(job.id)", "error": "\(LogText.error(error))"])
                throw ServiceFailure.storage("the passes the new version of \(name) does not fit cannot be stored: publish it again")
            }
            await record(misfits.map { ($0.0, $0.1.serialNumber, Outcome.failed($0.2)) }, in: &job)
            job.done -= misfits.count  // counted as checked, not done
            job.checked += keys.count
            job.kept += misfits.count
            job.after = last
            await save(job)
            if job.checked == keys.count && misfits.count == keys.count && keys.count == limit {
                throw ServiceFailure.unprocessable(
                    "the new version of \(name) fits none of the first \(keys.count) passes checked (see the failures); the old version stays: fix the template and publish again"
                )
            }
        }
    }

    /// Why the new version does not fit a pass (with the job's data merged); nil when it does.
    private func check(_ key: PassKey, data: JSONObject?, against candidate: PassTemplate) async -> LineFailure? {
        beforeEachItem.withLock { $0 }?()
        do {
            guard let pass = try await store.pass(passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber) else {
                return nil  // deleted since: nothing to keep
            }
            var values = (try? JSONParser.value(Array(pass.dataJSON.utf8)).objectValue) ?? JSONObject()
            for member in data.map(candidate.typed) ?? JSONObject()
            where member.key != "serialNumber" && member.key != "authenticationToken" && !member.key.hasPrefix(PassImageLibrary.keyPrefix) {
                values[member.key] = member.value
            }
            try await updates.renderer.check(pass, data: values, version: candidate)
            return nil
        } catch let failure as ServiceFailure {
            return LineFailure(failure.message ?? failure.description, serial: key.serialNumber)
        } catch {
            return LineFailure("cannot be checked: \(error)", serial: key.serialNumber)
        }
    }

    /// Stores the checked version and makes it the template's current one; its version. With a fleet's store the version
    /// is recorded for the other nodes first (``TemplateSync``): a version they cannot get fails the job.
    private func install(_ candidate: PassTemplate, named name: String, job: UpdateJob) async throws -> TemplateCatalog.Version {
        let version: TemplateCatalog.Version
        do {
            version = try await templates.store(candidate, named: name)
            try await sync?.published(candidate, named: name, job: job.id)
        } catch {
            logger.error(
                "cannot store a template version", metadata: ["template": "\(name)", "error": "\(LogText.error(error))"])
            throw ServiceFailure.storage("the new version of \(name) cannot be stored: publish it again")
        }
        templates.install(version, named: name)
        logger.notice(
            "template published",
            metadata: ["template": "\(name)", "version": "\(version.hash)", "checked": "\(job.checked)", "kept": "\(job.kept)"])
        return version
    }

    /// Every pass of the template after where the job stands that fits the new version, a chunk at a time. A job
    /// `resumed` in this phase applies again the chunk a stopped node (or a killed service) was applying, but a pass of
    /// it changed since that chunk started and at the version already was moved (it counts as changed, and is not given
    /// another).
    private func republish(_ job: inout UpdateJob, name: String, to version: String, resumed: Bool) async throws {
        let data = job.data
        let purge = job.purgeUnused
        let misfits = try await keptKeys(job.id)
        var replaying = resumed ? job.chunkStartedAt.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) } : nil
        while !Task.isShuttingDownGracefully && !isLost(job.id) {
            let page = try await store.passKeys(template: name, after: job.after, limit: limits.chunkLines)
            guard let last = page.last else { return }
            let keys = page.filter { !misfits.contains($0) }
            let first = job.done + 1
            let since = replaying
            replaying = nil
            let outcomes = await BoundedConcurrency.map(Array(keys.enumerated()), width: concurrency) { pair in
                (
                    first + pair.offset, pair.element.serialNumber,
                    await self.republish(pair.element, to: version, data: data, purge: purge, replayingSince: since)
                )
            }
            await record(outcomes, in: &job)
            job.after = last
            job.chunkStartedAt = Date()
            await save(job)
        }
    }

    private func republish(_ key: PassKey, to version: String, data: JSONObject?, purge: Bool, replayingSince: Date?) async -> Outcome {
        beforeEachItem.withLock { $0 }?()
        do {
            if let replayingSince,
                let pass = try await store.pass(passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber),
                pass.updatedAt >= replayingSince, pass.templateVersion == version
            {
                return .changed(pushes: 0)  // moved to the version before the stop
            }
            if data != nil || purge {
                let result = try await updates.update(
                    passTypeIdentifier: key.passTypeIdentifier, serialNumber: key.serialNumber, data: data ?? [:], voided: nil,
                    signs: false, purgeUnused: purge, templateVersion: version)
                if result.changed == true { return .changed(pushes: result.queuedPushes ?? 0) }
            }
            return .changed(pushes: try await updates.republish(key, to: version))
        } catch let failure as ServiceFailure {
            return .failed(LineFailure(failure.message ?? failure.description, serial: key.serialNumber))
        } catch {
            return .failed(LineFailure("not stored: \(error)", serial: key.serialNumber))
        }
    }

    /// A pass kept as a row of its job's failures, `["<type>", "<serial>"]` (as an earlier version's `<id>.kept.jsonl`
    /// held it a line).
    static func keptLine(_ key: PassKey) -> String {
        JSONWriter.string(.array([.string(key.passTypeIdentifier), .string(key.serialNumber)]), style: .compact)
    }

    static func keptKey(_ line: some Collection<UInt8>) -> PassKey? {
        guard let pair = try? JSONParser.value(Array(line)).arrayValue, pair.count == 2, let type = pair[0].stringValue,
            let serial = pair[1].stringValue
        else { return nil }
        return PassKey(passTypeIdentifier: type, serialNumber: serial)
    }

    /// The passes the job's new version does not fit.
    func keptKeys(_ id: String) async throws -> Set<PassKey> {
        var (keys, offset) = (Set<PassKey>(), 0)
        while true {
            let lines = try await store.jobFailures(id: id, kept: true, offset: offset, limit: 10_000)
            keys.formUnion(lines.compactMap { Self.keptKey($0.utf8) })
            offset += lines.count
            if lines.count < 10_000 { return keys }
        }
    }
}
