import Foundation
import Logging
import PassmintServer
import PassmintStore
import PassmintStorePostgres
import PassmintTestSupport
import PostgresNIO
import Testing

/// Two nodes on one PostgreSQL database change passes side by side, so a change may commit after another one that
/// took a higher tag. A device's poll must still find it: the `lastUpdated` it was given before the late commit is
/// below the late change's tag.
@Suite struct PostgresTagOrderTests {
    static let type = ServiceHarness.passType

    static func pass(_ serial: String) -> StoredPass {
        StoredPass(
            passTypeIdentifier: type, serialNumber: serial, authenticationToken: "token-0123456789abcdef", template: "Loyalty",
            dataJSON: #"{"points":1}"#)
    }

    /// Sessions of the test's database waiting for a lock.
    static func waitingForALock(_ client: PostgresClient, _ logger: Logger) async throws -> Bool {
        let rows = try await client.query(
            "SELECT COUNT(*)::int8 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
            logger: logger)
        for try await count in rows.decode(Int64.self) { return count > 0 }
        return false
    }

    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests))
    func aChangeCommittingLateWithAnEarlierTagReachesTheDevicesNextPoll() async throws {
        let url = try await offPool { Result { try TestEnvironment.freshPostgresURL() } }.get()
        let logger = Logger(label: "test.tag-order")
        let blocker = try PostgresPassStore.client(url: url, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await blocker.run() }
            try await openPassStore(url: url, logger: Logger(label: "test.node-a")).whileRunning { nodeA in
                try await openPassStore(url: url, logger: Logger(label: "test.node-b")).whileRunning { nodeB in
                    try await Self.interleave(nodeA, nodeB, blocker: blocker, logger: logger)
                }
            }
            group.cancelAll()
        }
    }

    /// The slow change (node A) takes its tag, then waits for a push row another session wrote and holds; the fast
    /// change (node B) takes a higher tag and commits, and the device polls; then the slow change commits.
    static func interleave(_ nodeA: any PassStore, _ nodeB: any PassStore, blocker: PostgresClient, logger: Logger) async throws {
        let (slow, fast, device) = (unique("SLOW"), unique("FAST"), unique("dev"))
        // The push tokens in the order the slow change owes them: the other device's first, so the slow change waits
        // before it owes the polling device's push (which the fast change owes too).
        let (deviceToken, otherToken) = ("ff" + pushToken().dropFirst(2), "00" + pushToken().dropFirst(2))
        for serial in [slow, fast] {
            _ = try await nodeA.insert(pass(serial))
            _ = try await nodeA.register(
                deviceLibraryIdentifier: device, pushToken: deviceToken, passTypeIdentifier: type, serialNumber: serial)
        }
        _ = try await nodeA.register(
            deviceLibraryIdentifier: unique("other"), pushToken: otherToken, passTypeIdentifier: type, serialNumber: slow)
        let first = try await nodeB.updatedSerials(deviceLibraryIdentifier: device, passTypeIdentifier: type, updatedSince: nil)
        #expect(Set(first.serialNumbers) == [slow, fast])

        let (seen, fastTag, slowChange) = try await blocker.withTransaction(logger: logger) { connection in
            try await connection.query(
                """
                INSERT INTO push_outbox (push_token, pass_type_id, generation, due_at, enqueued_at)
                VALUES (\(otherToken), \(type), 1, 0, 0)
                """, logger: logger)
            let slowChange = Task {
                try await nodeA.update(passTypeIdentifier: type, serialNumber: slow, dataJSON: #"{"points":2}"#, voided: false)
            }
            let waiting = try await eventually { try await waitingForALock(blocker, logger) }
            #expect(waiting, "the slow change waits for the held push row")
            let fastChange = try #require(
                try await nodeB.update(passTypeIdentifier: type, serialNumber: fast, dataJSON: #"{"points":3}"#, voided: false))
            let seen = try await nodeB.updatedSerials(
                deviceLibraryIdentifier: device, passTypeIdentifier: type, updatedSince: first.lastUpdated)
            #expect(seen.serialNumbers == [fast], "the fast change shows, the slow one has not committed")
            return (seen, fastChange.pass.updateTag, slowChange)
        }
        let slowCommitted = try #require(try await slowChange.value)
        #expect(slowCommitted.pass.updateTag < fastTag, "the slow change committed last with the lower tag")

        let next = try await nodeA.updatedSerials(
            deviceLibraryIdentifier: device, passTypeIdentifier: type, updatedSince: seen.lastUpdated)
        #expect(next.serialNumbers.contains(slow), "the device's next poll finds the change that committed late")
        // Nothing else writes to this test's database, so the polls settle at once; a transaction of another test that
        // starts between the poll's snapshot and its read of `pg_stat_activity` can hold one poll back, so each poll
        // (a fresh snapshot) is asked again, a bounded number of times.
        var since = next.lastUpdated
        var answer = next.serialNumbers
        for _ in 0..<2000 where !answer.isEmpty {
            let poll = try await nodeA.updatedSerials(deviceLibraryIdentifier: device, passTypeIdentifier: type, updatedSince: since)
            (since, answer) = (poll.lastUpdated, poll.serialNumbers)
        }
        #expect(answer.isEmpty, "the polls settle once nothing is in flight")
    }
}
