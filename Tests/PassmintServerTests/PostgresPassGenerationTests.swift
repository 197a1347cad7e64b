import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PassmintServer
import PassmintStore
import PassmintStorePostgres
import PassmintTestSupport
import PostgresNIO
import Testing

/// A PostgreSQL node keeps the pass rows devices fetch cached while devices register (a registration moves the
/// store's change generation, not its pass generation), and drops them after any write to `passes`: its own, another
/// node's, or a statement run outside Passmint (the table's trigger notifies).
@Suite struct PostgresPassGenerationTests {
    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests)) func registrationsKeepPassRowsCachedAndPassWritesDropThem() async throws {
        let logger = Logger(label: "test.pass-generation")
        // A database of its own: another test's pass write would move the pass generation too.
        let url = try await offPool { Result { try TestEnvironment.freshPostgresURL() } }.get()
        let clientA = try PostgresPassStore.client(url: url, logger: logger)
        let clientB = try PostgresPassStore.client(url: url, logger: logger)
        let storeA = PostgresPassStore(client: clientA, logger: logger)
        let storeB = PostgresPassStore(client: clientB, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await clientA.run() }
            group.addTask { await clientB.run() }
            try await storeA.migrate()
            #expect(storeA.passGeneration == nil, "no pass row is cached before the feed listens")
            group.addTask { await storeA.changeFeed.follow() }
            #expect(await TestEvents.within { await storeA.changed(since: nil) }, "node A's feed listens")

            let nodeA = try ServiceHarness.service(store: storeA, push: RecordingPushSender())
            let nodeB = try ServiceHarness.service(store: storeB, push: RecordingPushSender())
            let seen = storeA.passGeneration
            let issued = try await nodeB.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("GEN")))
            #expect(await TestEvents.within { await Self.passGeneration(of: storeA, movesFrom: seen) }, "node B's insert reached node A")
            let (type, serial) = (issued.pass.passTypeIdentifier, issued.pass.serialNumber)

            // A registration through this node moves the change generation (polls change), not the pass generation.
            let rows = try #require(storeA.passGeneration)
            let commits = try #require(storeA.changeGeneration)
            _ = try await storeA.register(
                deviceLibraryIdentifier: unique("dev"), pushToken: "00ff", passTypeIdentifier: type, serialNumber: serial)
            #expect(storeA.changeGeneration != commits)
            #expect(storeA.passGeneration == rows, "a registration leaves pass rows cached")

            try await buildApplication(core: nodeA, logger: logger).serviceTest(.live) { client in
                let pass = "/wallet/v1/passes/\(type)/\(serial)"
                var headers: HTTPFields = [.authorization: "ApplePass \(issued.pass.authenticationToken)"]
                try await client.execute(uri: pass, method: .get, headers: headers) { response in
                    #expect(response.status == .ok)
                    headers[.ifModifiedSince] = response.headers[.lastModified]
                }
                // A device registers through node A between two fetches: the second is answered from memory.
                let device = unique("dev")
                try await client.execute(
                    uri: "/wallet/v1/devices/\(device)/registrations/\(type)/\(serial)", method: .post, headers: headers,
                    body: ByteBuffer(string: #"{"pushToken":"00aa"}"#)
                ) { #expect($0.status == .created) }
                let fromMemory = nodeA.deviceReads.fastPathAnswers
                try await client.execute(uri: pass, method: .get, headers: headers) { #expect($0.status == .notModified) }
                #expect(nodeA.deviceReads.fastPathAnswers == fromMemory + 1, "the pass row stayed cached through the registration")
            }

            // A write to passes outside Passmint (no NOTIFY of its own) moves the pass generation through the trigger.
            let before = storeA.passGeneration
            try await clientB.query("UPDATE passes SET voided = true WHERE serial_number = \(serial)", logger: logger)
            #expect(await TestEvents.within { await Self.passGeneration(of: storeA, movesFrom: before) }, "the trigger notified node A")
            #expect(try await nodeA.deviceReads.devicePass(passTypeIdentifier: type, serialNumber: serial)?.pass.voided == true)
            group.cancelAll()
        }
    }

    /// Returns once `store`'s pass generation differs from `previous` (each move of it moves the change generation).
    static func passGeneration(of store: PostgresPassStore, movesFrom previous: UInt64?) async {
        while !Task.isCancelled {
            let commits = store.changeGeneration
            if store.passGeneration != previous { return }
            await store.changed(since: commits)
        }
    }
}
