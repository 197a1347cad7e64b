import Foundation
import Passmint
import PassmintStore

/// What bulk changes keep on this node's disk (the jobs themselves are in the store, `JobStore`): only an upload as it
/// arrives (`<id>.jsonl`, made durable and copied into the database before the job is acknowledged) or as this node
/// runs it (fetched from the database), removed when the job ends; and, until a start moves them into the database,
/// the jobs an earlier version kept here (`UpdateJobService+Upgrade`). Messages never name the folder's path: API
/// callers see what went wrong, the operator's log says where.
struct JobFolder: Sendable {
    let path: String
    /// Free bytes on the folder's disk; nil when it cannot be measured. Tests give their own.
    let freeSpace: @Sendable (String) -> Int64?

    init(path: String, freeSpace: @escaping @Sendable (String) -> Int64? = JobFolder.statvfsFreeSpace) {
        self.path = path
        self.freeSpace = freeSpace
    }

    /// Creates the folder when missing, before the first job is written to it.
    func create() throws(ServiceFailure) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .storage("the service cannot create its jobs folder: its operator's log says why")
        }
    }

    func upload(_ id: String) -> String { "\(path)/\(id).jsonl" }
    private func state(_ id: String) -> String { "\(path)/\(id).json" }

    /// Whether the disk has more than `reserve` bytes free (true when it cannot be measured).
    func hasRoom(reserve: Int64) -> Bool {
        guard reserve > 0, let free = freeSpace(path) else { return true }
        return free > reserve
    }

    func load(_ id: String) -> UpdateJob? {
        guard Self.isJobID(id), let bytes = try? FileIO.read(state(id), what: "job"),
            let object = try? JSONParser.value(bytes).objectValue
        else { return nil }
        return UpdateJob(json: object)
    }

    /// Removes a job's state, failures and kept passes (a job an earlier version kept here, moved into the database).
    func removeState(_ id: String) {
        for file in [state(id), "\(path)/\(id).failures.jsonl", "\(path)/\(id).kept.jsonl"] { unlink(file) }
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

    /// Removes what a stopped or killed service left: uploads (their jobs keep theirs in the database; one cut before
    /// its job was stored is not acknowledged) and half-written files, modified before `before` (an upload arriving now
    /// is not touched). The names removed.
    @discardableResult
    func removeOrphans(before: Date) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let states = Set(names.filter { $0.hasSuffix(".json") }.map { $0.dropLast(5) })
        var removed: [String] = []
        for name in names {
            let orphanUpload = name.hasSuffix(".jsonl") && !states.contains(name.prefix { $0 != "." })  // or failures, or kept
            let temporary = name.hasPrefix(".") && name.hasSuffix(".tmp")
            guard orphanUpload || temporary else { continue }
            let file = "\(path)/\(name)"
            let modified = (try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date
            guard let modified, modified < before else { continue }
            if unlink(file) == 0 { removed.append(name) }
        }
        return removed
    }

    /// Removes the upload of a job that ended; true when there was one.
    @discardableResult
    func removeUpload(_ id: String) -> Bool { unlink(upload(id)) == 0 }

    /// Free bytes for an unprivileged writer on the disk holding `path`.
    static func statvfsFreeSpace(_ path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
