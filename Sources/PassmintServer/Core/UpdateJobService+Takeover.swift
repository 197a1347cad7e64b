import Foundation
import Logging
import Passmint
import PassmintStore
import Synchronization

/// Taking a job over from a node that stopped renewing its lease (or released it, stopping): an upload's job goes on
/// from its last chunk saved (``applyUpload``); a template-wide change goes on from its last chunk saved too, checking
/// with the new version stored with it or, once the version was installed, keeping the passes it does not fit (kept
/// with the job's failures, ``SharedJobFailure/kept``).
extension UpdateJobService {
    /// A template version as the bytes stored with its job.
    static func versionBytes(_ template: PassTemplate) -> [UInt8] {
        Array(JSONWriter.string(.object(TemplateVersionJSON.object(template)), style: .compact).utf8)
    }

    /// Claims the oldest job of either kind whose lease ended (a stopped or killed start's, or a gone node's), and
    /// queues it.
    func takeOver() async {
        do {
            var claimed: SharedJob?
            for kind in [UpdateJob.Kind.updates, .template] where claimed == nil {
                claimed = try await store.claimJob(kind: kind.rawValue, owner: node, lease: lease)
            }
            guard let claimed, var job = Self.job(claimed) else { return }
            logger.notice(
                "taking over a job whose node stopped renewing its lease",
                metadata: ["job": "\(job.id)", "kind": "\(job.kind.rawValue)", "done": "\(job.done)"])
            held.withLock { _ = $0.insert(job.id) }
            lost.withLock { _ = $0.remove(job.id) }
            if job.kind == .template {
                do {
                    try await adopt(&job)
                } catch {
                    logger.error(
                        "cannot take over a template-wide change", metadata: ["job": "\(job.id)", "error": "\(LogText.error(error))"])
                    job.state = .failed
                    job.error = (error as? ServiceFailure).map { $0.message ?? $0.description } ?? "\(error)"
                    job.finishedAt = Date()
                    await saveShared(job)
                    held.withLock { _ = $0.remove(job.id) }
                    live.withLock { $0[job.id] = job }
                    return
                }
            }
            live.withLock { $0[job.id] = job }
            enqueue.yield(job.id)
        } catch {
            logger.warning("cannot look for jobs to take over", metadata: ["error": "\(LogText.error(error))"])
        }
    }

    /// Readies a template-wide change another node began: before its version was installed, the version stored with
    /// the job, to go on checking from the last chunk saved (the passes it does not fit so far are kept with the job);
    /// after, the version must have been recorded for every node (with a fleet's store).
    private func adopt(_ job: inout UpdateJob) async throws {
        guard let name = job.template else { return }
        if job.phase == .applying {
            guard let sync, try await sync.hasPublished(byJob: job.id, template: name) else {
                throw ServiceFailure.storage("the version of \(name) this publish installed is not in the database: publish it again")
            }
            return
        }
        var bytes: [UInt8] = []
        guard try await store.readJobUpload(id: job.id, { bytes += $0 }), let object = try? JSONParser.value(bytes),
            let candidate = TemplateVersionJSON.template(object, folder: templates.folder + "/" + name + ".pass")
        else { throw ServiceFailure.storage("the new version of \(name) is not in the database: publish it again") }
        candidates.withLock { $0[job.id] = candidate }
    }
}
