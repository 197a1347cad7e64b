import Foundation
import Passmint

/// Where bulk changes are kept on this node's disk: each job's state (`<id>.json`, replaced atomically after every
/// chunk), its upload (`<id>.jsonl`, written before the job is acknowledged) and its failures
/// (`<id>.failures.jsonl`, one `{"line", "serialNumber", "reason"}` per bad line).
struct JobFolder: Sendable {
    let path: String

    /// Creates the folder when missing, before the first job is written to it.
    func create() throws(ServiceFailure) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .storage("cannot create the jobs folder \(path) (--jobs-folder): \(error.localizedDescription)")
        }
    }

    func upload(_ id: String) -> String { "\(path)/\(id).jsonl" }
    func failures(_ id: String) -> String { "\(path)/\(id).failures.jsonl" }
    private func state(_ id: String) -> String { "\(path)/\(id).json" }

    /// Writes the job's state durably (a crash leaves the old state or the new, never half of one).
    func save(_ job: UpdateJob) throws {
        try FileIO.writeAtomically(JSONWriter.data(.object(job.json), style: .compact), to: state(job.id))
    }

    func load(_ id: String) -> UpdateJob? {
        guard Self.isJobID(id), let bytes = try? FileIO.read(state(id), what: "job"),
            let object = try? JSONParser.value(bytes).objectValue
        else { return nil }
        return UpdateJob(json: object)
    }

    /// What ``UpdateJobService`` names jobs: 32 lowercase hex digits.
    static func isJobID(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Every job in the folder, oldest first.
    func all() -> [UpdateJob] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.compactMap { load(String($0.dropLast(5))) }.sorted { $0.createdAt < $1.createdAt }
    }

    /// Appends bad lines to the job's failures, durably, before the state that counts them is saved.
    func appendFailures(_ id: String, _ lines: [JSONValue]) throws {
        guard !lines.isEmpty else { return }
        var bytes: [UInt8] = []
        for line in lines {
            bytes += JSONWriter.data(line, style: .compact)
            bytes.append(0x0A)
        }
        let descriptor = open(failures(id), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ServiceFailure.storage("cannot write \(failures(id))") }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0, FileIO.syncFolder(path) == 0 else {
            throw ServiceFailure.storage("cannot write \(failures(id))")  // the folder too: the first append creates the file
        }
    }

    /// The first `limit` failures of a job.
    func failureLines(_ id: String, limit: Int) -> [JSONValue] {
        guard let bytes = try? FileIO.read(failures(id), what: "failures") else { return [] }
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: true).prefix(limit).compactMap { try? JSONParser.value($0) }
    }
}
