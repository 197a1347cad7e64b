import Foundation
import Passmint
import PassmintServer
import PassmintTestSupport
import Testing

/// What a start resumes: the jobs a stopped service left running, never one this start is receiving (its state
/// written, its queueing not yet done), which would run twice and end failed with its upload gone.
@Suite struct JobResumeTests {
    @Test func onlyTheJobsOfAnEarlierStartAreResumed() async throws {
        let folder = TestEnvironment.temporaryFolder("jobs-resume")
        let configuration = try JobFilesTests.configured { $0.jobsFolder = folder.path }
        try await withStore(.sqlite) { store in
            let service = ServiceCore(
                configuration: configuration, store: store, push: RecordingPushSender(), logger: ringingLogger(label: "test.resume"))
            // Each job's upload holds one line naming no pass: the job fails that line and finishes.
            func stage(_ id: String, createdAt: Date) throws {
                let job = UpdateJob(id: id, kind: .updates, createdAt: createdAt)
                try JSONWriter.string(.object(job.json)).write(
                    toFile: folder.appendingPathComponent("\(id).json").path, atomically: true, encoding: .utf8)
                try Data("{}\n".utf8).write(to: folder.appendingPathComponent("\(id).jsonl"))
            }
            let left = String(repeating: "d4", count: 16)
            let receiving = String(repeating: "e5", count: 16)
            try stage(left, createdAt: Date().addingTimeInterval(-60))  // a stopped service's
            try stage(receiving, createdAt: Date())  // this start's, being received

            service.storeReady.open()
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await service.jobs.run() }
                #expect(await eventually { service.jobs.job(left)?.state == .finished }, "the job left running is resumed")
                group.cancelAll()
            }
            #expect(service.jobs.job(left)?.failed == 1)
            let untouched = try #require(service.jobs.job(receiving))
            #expect(untouched.state == .running && untouched.done == 0, "the job being received is left to its receiver: \(untouched)")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(receiving).jsonl").path))
        }
    }
}
