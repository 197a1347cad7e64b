import Foundation
import Logging
import Passmint
import PassmintStore

/// Jobs an earlier version left in the jobs folder (their state in `<id>.json`, their upload in `<id>.jsonl`, their
/// failures in `<id>.failures.jsonl`, the passes a publish keeps in `<id>.kept.jsonl`): a start moves them into the
/// database, unheld, so that they are taken over and go on from their last chunk as every job does.
extension UpdateJobService {
    func moveFolderJobsIntoStore() async {
        for job in folder.all() {
            do {
                if try await store.sharedJob(id: job.id) == nil {
                    let file = job.kind == .updates ? FileHandle(forReadingAtPath: folder.upload(job.id)) : nil
                    defer { try? file?.close() }
                    let failures = folderLines(job.id, "failures").compactMap { line in
                        (try? JSONParser.value(line))?["line"]?.numberValue?.intValue.map {
                            SharedJobFailure(phase: "", line: $0, json: String(decoding: line, as: UTF8.self))
                        }
                    }
                    try await store.appendJobFailures(id: job.id, failures)
                    try await store.insertJob(Self.record(job), owner: "", lease: .zero, nextBlock: file.map(Self.blocks))
                }
                // A publish kept its passes in the folder (its state was in the database already, or just moved there).
                let kept = folderLines(job.id, "kept").enumerated().compactMap { index, line in
                    Self.keptKey(line).map { SharedJobFailure(phase: SharedJobFailure.kept, line: index + 1, json: Self.keptLine($0)) }
                }
                try await store.appendJobFailures(id: job.id, kept)
                folder.removeState(job.id)
                logger.notice("moved a job from the jobs folder into the database", metadata: ["job": "\(job.id)"])
            } catch {
                logger.error(
                    "cannot move a job from the jobs folder into the database; the next start tries again",
                    metadata: ["job": "\(job.id)", "error": "\(LogText.error(error))"])
            }
        }
    }

    /// The lines an earlier version wrote to `<id>.<name>.jsonl`.
    private func folderLines(_ id: String, _ name: String) -> [ArraySlice<UInt8>] {
        guard let bytes = try? FileIO.read("\(folder.path)/\(id).\(name).jsonl", what: name) else { return [] }
        return bytes.split(separator: 0x0A)
    }
}
