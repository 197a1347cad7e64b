import Foundation
import Logging
import Passmint
import PassmintStore

/// Jobs an earlier version left in the jobs folder (their state in `<id>.json`, their upload in `<id>.jsonl`, their
/// failures in `<id>.failures.jsonl`): a start moves them into the database, unheld, so that they are taken over and go
/// on from their last chunk as every job does. Template-wide changes stay: their state keeps their kept versions.
extension UpdateJobService {
    func moveFolderJobsIntoStore() async {
        for job in folder.all() where job.kind == .updates {
            do {
                if try await store.sharedJob(id: job.id) == nil {
                    let file = FileHandle(forReadingAtPath: folder.upload(job.id))
                    defer { try? file?.close() }
                    try await store.appendJobFailures(id: job.id, folderFailures(job.id))
                    try await store.insertJob(Self.record(job), owner: "", lease: .zero, nextBlock: file.map(Self.blocks))
                }
                folder.removeState(job.id)
                logger.notice("moved a job from the jobs folder into the database", metadata: ["job": "\(job.id)"])
            } catch {
                logger.error(
                    "cannot move a job from the jobs folder into the database; the next start tries again",
                    metadata: ["job": "\(job.id)", "error": "\(LogText.error(error))"])
            }
        }
    }

    /// The failures an earlier version wrote to the jobs folder, one `{"line", …}` a line.
    private func folderFailures(_ id: String) -> [SharedJobFailure] {
        guard let bytes = try? FileIO.read("\(folder.path)/\(id).failures.jsonl", what: "failures") else { return [] }
        return bytes.split(separator: 0x0A).compactMap { line in
            guard let object = try? JSONParser.value(line), let number = object["line"]?.numberValue?.intValue else { return nil }
            return SharedJobFailure(phase: "", line: number, json: String(decoding: line, as: UTF8.self))
        }
    }
}
