import Foundation
import Logging
import Passmint
import PassmintStore
import PassmintStorePostgres
import PassmintTestSupport
import ServiceLifecycle
import Synchronization
import Testing

@testable import PassmintServer

/// A node of a fleet that stops gracefully (SIGTERM: its service group's graceful shutdown) in the middle of a bulk
/// update releases its lease on the job once the chunk in flight is saved, and the other node takes the job over at
/// once: both nodes' stores read one clock that never moves, so the lease itself never ends.
@Suite struct JobLeaseReleaseTests {
    static let count = 8

    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests)) func aNodeStoppedGracefullyHandsItsJobOverAtOnceEveryLineOnce()
        async throws
    {
        let url = try await offPool { Result { try TestEnvironment.freshPostgresURL() } }.get()
        let clock = ManualClock()
        try await openPassStore(url: url, logger: Logger(label: "test.node-a"), clock: clock.today).whileRunning { storeA in
            try await openPassStore(url: url, logger: Logger(label: "test.node-b"), clock: clock.today).whileRunning { storeB in
                var configuration = try ServiceHarness.configuration()
                configuration.jobLease = .seconds(2)  // the store's clock decides when it ends: never, here
                configuration.jobLimits.chunkLines = 2
                let logger = ringingLogger(label: "test.lease")
                let nodeA = ServiceCore(
                    configuration: configuration, store: storeA, push: RecordingPushSender(), logger: logger, clock: clock.today)
                configuration.jobsFolder = TestEnvironment.temporaryFolder("jobs-b").path
                let nodeB = ServiceCore(
                    configuration: configuration, store: storeB, push: RecordingPushSender(), logger: logger, clock: clock.today)
                try await Self.check(nodeA, nodeB, storeB)
            }
        }
    }

    /// Issues passes with a device each, runs a job of one line per pass on node A, stops A gracefully in its second
    /// chunk and checks that B finishes the job, every line applied once.
    static func check(_ nodeA: ServiceCore, _ nodeB: ServiceCore, _ store: any PassStore) async throws {
        var serials: [String] = []
        var issuedType = ""
        for index in 0..<count {
            let issued = try await nodeA.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("LEASE")))
            serials.append(issued.pass.serialNumber)
            issuedType = issued.pass.passTypeIdentifier
            _ = try await nodeA.registrations.register(
                device: unique("dev"), pushToken: String(format: "%064x", 0xA000 + index),
                passTypeIdentifier: issued.pass.passTypeIdentifier,
                serialNumber: issued.pass.serialNumber)
        }
        let type = issuedType
        // Node A's third line (its second chunk) waits until the test opens the gate, after A was told to stop.
        let gate = PublishCheckTests.Gate()
        let items = ItemCount()
        nodeA.jobs.beforeEachItem.withLock { $0 = { if items.next() == 3 { gate.hold() } } }
        nodeA.storeReady.open()
        nodeB.storeReady.open()
        let groupA = ServiceGroup(configuration: .init(services: [nodeA.jobs], logger: Logger(label: "test.group-a")))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await groupA.run() }
            group.addTask { try await nodeB.jobs.run() }

            let upload = try nodeA.jobs.newUpload()
            let text = serials.map { #"{"passTypeIdentifier":"\#(type)","serialNumber":"\#($0)","data":{"points":4321}}"# }
            let bytes = Array((text.joined(separator: "\n") + "\n").utf8)
            try bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> Void in try upload.write(raw) }
            let id = try await nodeA.jobs.submit(upload).id

            await offPool { gate.waitUntilHeld() }
            await groupA.triggerGracefulShutdown()  // as SIGTERM does
            gate.open()
            #expect(await eventually { await nodeB.jobs.status(id)?.state == .finished }, "node B finished the job")
            let job = try #require(await nodeB.jobs.status(id))
            #expect(job.done == count && job.changed == count && job.unchanged == 0 && job.failed == 0, "\(job.json)")
            // Its own copy follows the database's (saved first): seen a moment later under load.
            #expect(await eventually { nodeB.jobs.job(id)?.state == .finished }, "node B ran the job's end itself")
            #expect(nodeA.jobs.job(id).map { $0.done >= 4 && $0.done < count } == true, "node A stopped after its second chunk")
            group.cancelAll()
        }

        // Every line applied once: one new version per pass, one push owed per device.
        let events = try await store.events(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 4e9), limit: 10_000)
        let updated = events.filter { $0.kind == .updated }.map(\.serialNumber)
        #expect(updated.sorted() == serials.sorted(), "each pass changed once")
        #expect(try await store.outboxStatus(.applePush).depth == count, "a push owed to each device")
        for serial in serials {
            let stored = try #require(try await store.pass(passTypeIdentifier: type, serialNumber: serial))
            #expect(stored.dataJSON.contains("4321"), "\(serial) has the job's change")
        }
    }

    /// Counts the job's steps, on whichever thread takes them.
    final class ItemCount: Sendable {
        private let count = Mutex(0)

        /// The step's number, from 1.
        func next() -> Int {
            count.withLock {
                $0 += 1
                return $0
            }
        }
    }
}
