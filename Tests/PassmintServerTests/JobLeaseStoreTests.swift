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
        let url = try await offPool { Result { try kind.databaseURL() } }.get()
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

    /// A receiver killed between the blocks of an upload (SQLite writes a block a write; PostgreSQL stores the upload in
    /// the transaction with its job, so leaves nothing) leaves blocks with no job: they are removed once their last block
    /// is a lease old, and an upload being stored now is not touched. A job's kept passes are listed apart from its
    /// failures.
    @Test(arguments: StoreKind.allCases) func blocksOfAnUploadWithNoJobGoALeaseLaterAndKeptPassesAreListedApart(
        kind: StoreKind
    ) async throws {
        let url = try await offPool { Result { try kind.databaseURL() } }.get()
        try await openPassStore(url: url, logger: Logger(label: "test.orphans")).whileRunning { store in
            struct Killed: Error {}
            var sent = 0
            let cut = SharedJob(id: "cut1", kind: "updates", running: true, json: "{}", createdAt: Date(), finishedAt: nil)
            await #expect(throws: (any Error).self) {  // Killed, within PostgreSQL's transaction error
                try await store.insertJob(cut, owner: "gone", lease: .seconds(60)) {
                    sent += 1
                    if sent > 2 { throw Killed() }
                    return Array("{\"a\":\(sent)}\n".utf8)
                }
            }
            var blocks = [Array("{}\n".utf8)].makeIterator()
            let whole = SharedJob(id: "whole1", kind: "updates", running: true, json: "{}", createdAt: Date(), finishedAt: nil)
            try await store.insertJob(whole, owner: "here", lease: .seconds(60)) { blocks.next() }
            let held = { @Sendable (id: String) in try await store.readJobUpload(id: id) { _ in } }
            #expect(try await held("cut1") == (kind == .sqlite), "SQLite keeps the blocks written before the kill")

            try await store.removeJobUploads(id: nil, endedBefore: nil, abandonedFor: .seconds(3600))
            #expect(try await held("cut1") == (kind == .sqlite), "an upload written within the lease may be being stored")
            try await store.removeJobUploads(id: nil, endedBefore: nil, abandonedFor: .zero)
            #expect(try await held("cut1") == false, "removed: no job, and its last block a lease old")
            #expect(try await held("whole1"), "a job's upload stays")

            try await store.appendJobFailures(
                id: "whole1",
                [
                    SharedJobFailure(phase: "checking", line: 1, json: #"{"line":1}"#),
                    SharedJobFailure(phase: SharedJobFailure.kept, line: 1, json: #"["pass.a","S1"]"#),
                ])
            #expect(try await store.jobFailures(id: "whole1", kept: false, offset: 0, limit: 10) == [#"{"line":1}"#])
            #expect(try await store.jobFailures(id: "whole1", kept: true, offset: 0, limit: 10) == [#"["pass.a","S1"]"#])
        }
    }
}
