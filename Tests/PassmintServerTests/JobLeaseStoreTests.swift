import Foundation
import Logging
import PassmintServer
import PassmintStore
import PassmintStorePostgres
import PassmintTestSupport
import Testing

/// The leases on jobs (``JobStore``, on SQLite as on PostgreSQL): workers racing for a job whose lease ended (two
/// nodes of a fleet, or two services on one SQLite file: a restart and a receiver) get it once, and the worker that
/// lost it can no longer save it.
@Suite struct JobLeaseStoreTests {
    @Test(arguments: StoreKind.allCases) func workersRacingForAnAbandonedJobGetItOnceAndTheFormerHolderCannotSave(
        kind: StoreKind
    ) async throws {
        let url = try await ConnectionLimitsTests.offPool { Result { try kind.databaseURL() } }.get()
        let logger = Logger(label: "test.leases")
        try await openPassStore(url: url, logger: logger).whileRunning { first in
            try await openPassStore(url: url, logger: logger).whileRunning { second in
                let stores = [first, second]
                let blocks = [Array("{\"a\":1}\n".utf8), Array("{\"b\":2}\n".utf8)]
                var next = blocks.makeIterator()
                let job = SharedJob(id: "ab12", kind: "updates", running: true, json: "{}", createdAt: Date(), finishedAt: nil)
                // Held for no time at all: the lease has ended as soon as it is written.
                try await stores[0].insertJob(job, owner: "gone", lease: .zero, nextBlock: { next.next() })

                let claims = try await withThrowingTaskGroup(of: String?.self) { group in
                    for index in 0..<16 {
                        group.addTask {
                            try await stores[index % 2].claimJob(kind: "updates", owner: "node-\(index)", lease: .seconds(600))?.id
                        }
                    }
                    return try await group.reduce(into: [String]()) { if let id = $1 { $0.append(id) } }
                }
                #expect(claims == ["ab12"], "one node takes the job over")
                #expect(try await stores[1].claimJob(kind: "updates", owner: "late", lease: .seconds(600)) == nil)

                var progress = job
                progress.json = #"{"done":1}"#
                #expect(try await stores[0].saveJob(progress, owner: "gone", lease: .seconds(60)) == false, "the former holder")
                #expect(try await stores[0].renewJobLease(id: "ab12", owner: "gone", lease: .seconds(60)) == false)
                #expect(try await stores[1].sharedJob(id: "ab12")?.json == "{}")

                var upload: [UInt8] = []
                #expect(try await stores[1].readJobUpload(id: "ab12") { upload += $0 })
                #expect(upload == blocks.flatMap { $0 }, "the upload, in order")
            }
        }
    }
}
