import Foundation
import Passmint
import PassmintStore
import PassmintTestSupport
import Testing

@testable import PassmintServer

/// What a start takes over: the jobs whose lease lapsed (a stopped service released it, or a killed one stopped
/// renewing it), never one whose worker still holds it (a receiver storing it, another service on the file), which
/// would run twice and end failed with its upload gone.
@Suite struct JobResumeTests {
    @Test(arguments: StoreKind.allCases) func onlyTheJobsWhoseLeaseLapsedAreTakenOver(kind: StoreKind) async throws {
        let configuration = try ServiceHarness.configuration()
        try await withStore(kind) { store in
            let service = ServiceCore(
                configuration: configuration, store: store, push: RecordingPushSender(), logger: ringingLogger(label: "test.resume"))
            // Each job's upload holds one line naming no pass: the job fails that line and finishes.
            func stage(_ id: String, owner: String, lease: Duration) async throws {
                var blocks = [Array("{}\n".utf8)].makeIterator()
                let job = UpdateJobService.record(UpdateJob(id: id, kind: .updates))
                try await store.insertJob(job, owner: owner, lease: lease, nextBlock: { blocks.next() })
            }
            let left = randomHex(16)
            let held = randomHex(16)
            try await stage(left, owner: "stopped", lease: .zero)  // a stopped service's
            try await stage(held, owner: "receiver", lease: .seconds(3600))  // held by a live worker

            service.storeReady.open()
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await service.jobs.run() }
                #expect(await eventually { service.jobs.job(left)?.state == .finished }, "the job whose lease lapsed is taken over")
                group.cancelAll()
            }
            #expect(service.jobs.job(left)?.failed == 1)
            #expect(service.jobs.job(held) == nil, "the held job is left to its worker")
            let untouched = try #require(await service.jobs.status(held))
            #expect(untouched.state == .running && untouched.done == 0, "\(untouched)")
            #expect(try await store.readJobUpload(id: held) { _ in }, "its upload stays")
        }
    }
}
