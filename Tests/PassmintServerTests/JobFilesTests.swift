import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintStore
import PassmintTestSupport
import Synchronization
import Testing

@testable import PassmintServer

/// What jobs keep is bounded (issue 32, items 5, 7 and 13): failures capped and written compactly, uploads removed
/// when their job ends (from the jobs folder at once, from the database after their retention), what a killed service
/// left removed at start, uploads refused first when the disk is down to its reserve, and no server path in what API
/// callers read.
@Suite struct JobFilesTests {
    static let bearer = UpdateJobTests.bearer

    /// A service on a fresh SQLite store with `limits` changed as given.
    func withService(
        _ configuration: ServerConfiguration? = nil,
        _ body: @Sendable (ServiceCore, any ServiceClient, String) async throws -> Void
    ) async throws {
        let settled = try configuration ?? ServiceHarness.configuration()
        try await withStore(.sqlite) { store in
            let service = ServiceCore(
                configuration: settled, store: store, push: RecordingPushSender(), logger: ringingLogger(label: "test.jobs"))
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                try await body(service, client, settled.jobsFolder)
            }
        }
    }

    /// The tests' configuration, changed as given.
    static func configured(_ change: (inout ServerConfiguration) throws -> Void) throws -> ServerConfiguration {
        var configuration = try ServiceHarness.configuration()
        try change(&configuration)
        return configuration
    }

    func post(_ client: some ServiceClient, _ body: String) async throws -> (HTTPResponse.Status, JSONValue) {
        let response = try await client.execute(uri: "/api/v1/updates", method: .post, headers: Self.bearer, body: ByteBuffer(string: body))
        return (response.status, (try? JSONParser.value(Array(response.body.readableBytesView))) ?? .null)
    }

    @Test func failuresAreCappedCompactAndKeptWithTheStateAndTheUploadGoesWhenTheJobEnds() async throws {
        let configured = try Self.configured {
            $0.jobLimits.failuresKept = 2
            $0.jobLimits.failuresInState = 1
        }
        try await withService(configured) { _, client, folder in
            let (status, answer) = try await post(client, Array(repeating: "{}", count: 5).joined(separator: "\n"))
            #expect(status == .accepted)
            let id = try #require(answer["id"]?.stringValue)
            let job = try await UpdateJobTests().finished(client, id)
            #expect(job["failed"] == 5 && job["failuresNotKept"] == 3 && job["failures"]?.arrayValue?.count == 1, "\(job)")
            let report = try await client.execute(uri: "/api/v1/jobs/\(id)/failures", method: .get, headers: Self.bearer)
            let lines = String(buffer: report.body).split(separator: "\n")
            #expect(lines.count == 2, "\(lines)")
            #expect(lines.allSatisfy { !$0.contains("serialNumber") }, "no null serial numbers: \(lines)")
            #expect(!FileManager.default.fileExists(atPath: "\(folder)/\(id).jsonl"), "the upload is removed when its job ends")

            // The status answers the first failures from the job's state.
            let state = try await client.execute(uri: "/api/v1/jobs/\(id)", method: .get, headers: Self.bearer)
            let again = try JSONParser.value(Array(state.body.readableBytesView))
            #expect(again["failures"]?.arrayValue?.first?["line"] == 1, "\(again)")
        }
    }

    /// Also what an earlier version kept in the jobs folder (each job's state and upload): a start moves it into the
    /// database.
    @Test func whatAKilledServiceLeftIsRemovedAtStartAndUploadsGoAfterTheirRetention() async throws {
        let folder = TestEnvironment.temporaryFolder("jobs-left")
        @Sendable func file(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let orphan = String(repeating: "a1", count: 16)
        let old = String(repeating: "b2", count: 16)
        let recent = String(repeating: "c3", count: 16)
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: file("\(orphan).jsonl")))  // cut by kill -9 before its job
        try Data("{".utf8).write(to: URL(fileURLWithPath: file(".\(old).json.3f2a.tmp")))  // a state half written
        for (id, ended) in [(old, Date().addingTimeInterval(-2 * 86_400)), (recent, Date())] {
            var job = UpdateJob(id: id, kind: .updates)
            job.state = .finished
            job.finishedAt = ended
            try JSONWriter.string(.object(job.json)).write(toFile: file("\(id).json"), atomically: true, encoding: .utf8)
            try Data("{}\n".utf8).write(to: URL(fileURLWithPath: file("\(id).jsonl")))
        }
        let past = Date().addingTimeInterval(-60)
        for name in ["\(orphan).jsonl", ".\(old).json.3f2a.tmp"] {
            try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: file(name))
        }
        let configured = try Self.configured {
            $0.jobsFolder = folder.path
            $0.jobLimits.uploadRetention = .seconds(86_400)
        }
        try await withService(configured) { service, _, _ in
            let exists = { @Sendable (name: String) in FileManager.default.fileExists(atPath: file(name)) }
            #expect(await eventually { !exists("\(orphan).jsonl") && !exists(".\(old).json.3f2a.tmp") && !exists("\(old).jsonl") })
            #expect(await eventually { await service.jobs.status(old) != nil && !exists("\(old).json") }, "moved into the database")
            let held = { @Sendable (id: String) in try await service.store.readJobUpload(id: id) { _ in } }
            #expect(await eventually { (try? await held(old)) == false }, "an upload past its retention")
            let kept = try await held(recent)
            #expect(kept, "kept: an upload within its retention")
            #expect(await service.jobs.status(recent)?.state == .finished)
        }
    }

    /// A publish of an earlier version kept the passes its new version does not fit in the jobs folder
    /// (`<id>.kept.jsonl`): a start moves them into the database with the job, apart from its failures.
    @Test func thePassesAnEarlierVersionsPublishKeptInTheFolderAreMovedIntoTheDatabase() async throws {
        let folder = TestEnvironment.temporaryFolder("jobs-kept")
        @Sendable func file(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let id = String(repeating: "e5", count: 16)
        var job = UpdateJob(id: id, kind: .template)
        job.template = "Loyalty"
        job.phase = .applying
        (job.state, job.finishedAt, job.checked, job.kept, job.failed) = (.finished, Date(), 3, 2, 2)
        try JSONWriter.string(.object(job.json)).write(toFile: file("\(id).json"), atomically: true, encoding: .utf8)
        try Data((#"{"line":1,"serialNumber":"S1","reason":"does not fit"}"# + "\n").utf8).write(
            to: URL(fileURLWithPath: file("\(id).failures.jsonl")))
        try Data("[\"\(UpdateJobTests.type)\",\"S1\"]\n[\"\(UpdateJobTests.type)\",\"S3\"]\n".utf8).write(
            to: URL(fileURLWithPath: file("\(id).kept.jsonl")))
        let configured = try Self.configured { $0.jobsFolder = folder.path }
        try await withService(configured) { service, client, _ in
            let gone = { @Sendable in !FileManager.default.fileExists(atPath: file("\(id).kept.jsonl")) }
            #expect(await eventually { gone() && !FileManager.default.fileExists(atPath: file("\(id).json")) })
            let kept = try await service.jobs.keptKeys(id)
            #expect(kept == Set(["S1", "S3"].map { PassKey(passTypeIdentifier: UpdateJobTests.type, serialNumber: $0) }))
            #expect(await service.jobs.status(id)?.kept == 2)
            let report = try await client.execute(uri: "/api/v1/jobs/\(id)/failures", method: .get, headers: Self.bearer)
            #expect(String(buffer: report.body) == #"{"line":1,"serialNumber":"S1","reason":"does not fit"}"# + "\n", "the failures alone")
        }
    }

    /// The free space the service measures: `bytes`, or (with `fillsAfterFirst`) plenty at the first measure and
    /// 1 MiB after it.
    final class FreeSpace: Sendable {
        let calls = Atomic<Int>(0)
        let bytes = Atomic<Int64>(0)
        let fillsAfterFirst = Atomic<Bool>(false)

        func measure() -> Int64 {
            let call = calls.add(1, ordering: .relaxed).newValue
            if fillsAfterFirst.load(ordering: .relaxed) { return call == 1 ? 1 << 30 : 1 << 20 }
            return bytes.load(ordering: .relaxed)
        }
    }

    @Test func belowTheDiskReserveUploadsAreRefusedAndCut() async throws {
        let free = FreeSpace()
        let configured = try Self.configured {
            $0.jobLimits.diskReserve = 256 << 20
            $0.jobLimits.freeSpace = { _ in free.measure() }
        }
        try await withService(configured) { _, client, folder in
            let line = #"{"passTypeIdentifier":"pass.x","serialNumber":"S","data":{"a":1}}"#
            free.bytes.store(100 << 20, ordering: .relaxed)
            let (refused, answer) = try await post(client, line)
            #expect(refused.code == 507, "\(answer)")
            #expect(
                answer["error"]?["message"]?.stringValue?.contains("nearly full") == true && answer["error"]?["code"] == "disk-full",
                "\(answer)")

            free.bytes.store(1 << 30, ordering: .relaxed)
            let accepted = try await post(client, line)
            #expect(accepted.0 == .accepted)
            _ = try await UpdateJobTests().finished(client, try #require(accepted.1["id"]?.stringValue))  // measures no more

            // An upload in progress is cut when the disk falls to the reserve while it arrives.
            free.calls.store(0, ordering: .relaxed)
            free.fillsAfterFirst.store(true, ordering: .relaxed)
            let cut = try await post(client, String(repeating: " ", count: 5 << 20))
            #expect(cut.0.code == 507, "\(cut.1)")
            let uploads = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
                $0.hasSuffix(".jsonl") && !$0.contains("failures")
            }
            #expect(uploads.count <= 1, "only the accepted job's upload, if it has not ended yet: \(uploads)")
        }
    }

    @Test func errorsNeverShowTheServersPaths() async throws {
        let blocker = TestEnvironment.temporaryFolder("not-a-folder").appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let configured = try Self.configured { $0.jobsFolder = blocker.appendingPathComponent("jobs").path }
        try await withService(configured) { _, client, _ in
            let (status, answer) = try await post(client, "{}")
            #expect(status == .internalServerError)
            #expect(answer["error"]?["message"]?.stringValue?.contains("jobs folder") == true, "\(answer)")
            #expect(!JSONWriter.string(answer).contains(blocker.path), "\(answer)")
        }
        // A job whose upload is gone fails, saying so without the folder's path.
        let folder = TestEnvironment.temporaryFolder("jobs-gone")
        let id = String(repeating: "d4", count: 16)
        try JSONWriter.string(.object(UpdateJob(id: id, kind: .updates, createdAt: Date().addingTimeInterval(-60)).json)).write(
            toFile: folder.appendingPathComponent("\(id).json").path, atomically: true, encoding: .utf8)
        let resumed = try Self.configured { $0.jobsFolder = folder.path }
        try await withService(resumed) { service, client, _ in
            #expect(await eventually { await service.jobs.status(id) != nil }, "moved from the jobs folder into the database")
            let job = try await UpdateJobTests().finished(client, id)
            #expect(job["state"] == "failed" && job["error"]?.stringValue?.contains("upload") == true, "\(job)")
            #expect(!JSONWriter.string(job).contains(folder.path), "\(job)")
        }
    }
}
