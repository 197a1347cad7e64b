import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintServer
import PassmintStore
import PassmintStorePostgres
import PassmintTestSupport
import PostgresNIO
import Testing

/// Two service nodes on one PostgreSQL database: each caches device reads only while its change feed listens, and
/// a change made through one node shows in the other's next answers.
@Suite struct PostgresFleetTests {
    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests)) func aChangeOnOneNodeShowsOnTheOther() async throws {
        let logger = Logger(label: "test.fleet")
        let clientA = try PostgresPassStore.client(url: TestEnvironment.postgresURL(), logger: logger)
        let clientB = try PostgresPassStore.client(url: TestEnvironment.postgresURL(), logger: logger)
        let storeA = PostgresPassStore(client: clientA, logger: logger)
        let storeB = PostgresPassStore(client: clientB, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await clientA.run() }
            group.addTask { await clientB.run() }
            try await storeA.migrate()
            #expect(storeA.changeGeneration == nil, "no caching before the feed listens")
            group.addTask { await storeA.changeFeed.follow() }
            group.addTask { await storeB.changeFeed.follow() }
            #expect(await TestEvents.within { await storeA.changed(since: nil) }, "node A's feed listens")
            #expect(await TestEvents.within { await storeB.changed(since: nil) }, "node B's feed listens")
            #expect(storeA.changeGeneration != nil && storeB.changeGeneration != nil)

            let nodeA = try ServiceHarness.service(store: storeA, push: RecordingPushSender())
            let nodeB = try ServiceHarness.service(store: storeB, push: RecordingPushSender())
            let issued = try await nodeB.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("FLEET")))
            let type = issued.pass.passTypeIdentifier
            let serial = issued.pass.serialNumber
            let device = unique("dev")

            try await buildApplication(core: nodeA, logger: logger).serviceTest(.live) { client in
                let poll = "/wallet/v1/devices/\(device)/registrations/\(type)"
                // Other tests share the server, and each of their commits (in any database: the WAL is the
                // server's) moves node A's generation too: poll until two polls fall between two commits, for as
                // long as a busy neighbour (the campaign test) may write without a pause.
                let end = ContinuousClock.now + .seconds(180)
                while nodeA.deviceReads.fastPathAnswers == 0, ContinuousClock.now < end {
                    let generation = storeA.changeGeneration
                    try await client.execute(uri: poll, method: .get) { #expect($0.status == .noContent) }
                    try await client.execute(uri: poll, method: .get) { #expect($0.status == .noContent) }
                    // A commit fell between the two: poll again once the feed has seen it.
                    if nodeA.deviceReads.fastPathAnswers == 0 { _ = await TestEvents.within { await storeA.changed(since: generation) } }
                }
                #expect(nodeA.deviceReads.fastPathAnswers >= 1, "node A answers a repeated poll from memory")

                // The device registers through node B (no NOTIFY): node A sees it through the WAL position it polls.
                let before = try #require(storeA.changeGeneration)
                _ = try await storeB.register(
                    deviceLibraryIdentifier: device, pushToken: "00ff", passTypeIdentifier: type, serialNumber: serial)
                #expect(await TestEvents.within { await storeA.changed(since: before) }, "node B's commit reached node A")
                var tag = ""
                try await client.execute(uri: poll, method: .get) { response in
                    #expect(response.status == .ok)
                    tag = try #require(try JSONParser.value(Array(response.body.readableBytesView))["lastUpdated"]?.stringValue)
                }
                try await client.execute(uri: poll + "?passesUpdatedSince=\(tag)", method: .get) { #expect($0.status == .noContent) }
                try await client.execute(uri: poll + "?passesUpdatedSince=\(tag)", method: .get) { #expect($0.status == .noContent) }

                // The issuer updates through node B: node A's poll and pass follow.
                let generation = try #require(storeA.changeGeneration)
                _ = try await nodeB.updates.update(passTypeIdentifier: type, serialNumber: serial, data: ["points": 77], voided: nil)
                #expect(await TestEvents.within { await storeA.changed(since: generation) }, "node B's update reached node A")
                try await client.execute(uri: poll + "?passesUpdatedSince=\(tag)", method: .get) { response in
                    #expect(response.status == .ok)
                    let serials = try JSONParser.value(Array(response.body.readableBytesView))["serialNumbers"]
                    #expect(serials == [.string(serial)])
                }
                try await client.execute(
                    uri: "/wallet/v1/passes/\(type)/\(serial)", method: .get,
                    headers: [.authorization: "ApplePass \(issued.pass.authenticationToken)"]
                ) { response in
                    let entries = try ZipArchive.read(Array(response.body.readableBytesView), source: "pass")
                    let json = try JSONParser.value(try #require(entries.first { $0.name == "pass.json" }).bytes)
                    #expect(json["storeCard"]?["primaryFields"]?.arrayValue?.first?["value"] == 77)
                }
            }
            group.cancelAll()
        }
    }
}
