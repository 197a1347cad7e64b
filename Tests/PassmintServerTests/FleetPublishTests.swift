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

/// A template version published through one node of a fleet is served by every node, whatever its own templates
/// folder holds.
@Suite struct FleetPublishTests {
    /// A templates folder of its own with the Loyalty template.
    static func templates(_ name: String) throws -> URL {
        let folder = TestEnvironment.temporaryFolder(name)
        try FileManager.default.copyItem(
            at: TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.pass"),
            to: folder.appendingPathComponent("Loyalty.pass"))
        return folder
    }

    /// The pass.json of the pass as the node behind `client` serves it to a device.
    static func served(_ client: some ServiceClient, _ pass: StoredPass) async throws -> String {
        let response = try await client.execute(
            uri: "/wallet/v1/passes/\(pass.passTypeIdentifier)/\(pass.serialNumber)", method: .get,
            headers: [.authorization: "ApplePass \(pass.authenticationToken)"])
        #expect(response.status == .ok)
        let entries = try ZipArchive.read(Array(response.body.readableBytesView), source: "pass")
        return String(decoding: try #require(entries.first { $0.name == "pass.json" }).bytes, as: UTF8.self)
    }

    /// Runs `body` with a client of `node`'s application, which runs its services (the jobs, the template versions).
    static func running<T: Sendable>(
        _ node: ServiceCore, _ body: @Sendable (any ServiceClient) async throws -> T
    ) async throws -> T {
        try await buildApplication(core: node, logger: Logger(label: "test.fleet")).serviceTest(.router) { client in try await body(client)
        }
    }

    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests)) func aTemplatePublishedThroughOneNodeIsServedByTheOther() async throws {
        let logger = Logger(label: "test.fleet")
        let url = try await offPool { Result { try TestEnvironment.freshPostgresURL() } }.get()
        let clientA = try PostgresPassStore.client(url: url, logger: logger)
        let clientB = try PostgresPassStore.client(url: url, logger: logger)
        let storeA = PostgresPassStore(client: clientA, logger: logger)
        let storeB = PostgresPassStore(client: clientB, logger: logger)
        let (foldersA, foldersB) = (try Self.templates("fleet-a"), try Self.templates("fleet-b"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await clientA.run() }
            group.addTask { await clientB.run() }
            try await storeA.migrate()
            group.addTask { await storeA.changeFeed.follow() }
            group.addTask { await storeB.changeFeed.follow() }
            var configuration = try ServiceHarness.configuration()
            configuration.templatesFolder = foldersA.path
            let nodeA = ServiceCore(configuration: configuration, store: storeA, push: RecordingPushSender(), logger: logger)
            configuration.templatesFolder = foldersB.path
            configuration.jobsFolder = TestEnvironment.temporaryFolder("fleet-b-jobs").path
            let nodeB = ServiceCore(configuration: configuration, store: storeB, push: RecordingPushSender(), logger: logger)
            configuration.templatesFolder = try Self.templates("fleet-c").path
            configuration.jobsFolder = TestEnvironment.temporaryFolder("fleet-c-jobs").path
            let nodeC = ServiceCore(configuration: configuration, store: storeB, push: RecordingPushSender(), logger: logger)
            let issued = try await nodeA.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("FLEET")))
            let pass = issued.pass

            try await Self.running(nodeA) { _ in
                try await Self.running(nodeB) { b in
                    #expect(try await Self.served(b, pass).contains("POINTS"), "node B serves the version it had")

                    // Node A's folder gets the new version, node B's keeps the old one: B has it from the database.
                    let passJSON = foldersA.appendingPathComponent("Loyalty.pass/pass.json")
                    let original = try String(contentsOf: passJSON, encoding: .utf8)
                    try original.replacingOccurrences(of: "\"POINTS\"", with: "\"STARS\"").write(
                        to: passJSON, atomically: true, encoding: .utf8)
                    let job = try await nodeA.jobs.publish(template: "Loyalty", data: nil)
                    #expect(await eventually { nodeA.jobs.job(job.id)?.state == .finished }, "the publish job finished")
                    #expect(nodeA.jobs.job(job.id)?.changed == 1)

                    #expect(
                        await eventually { (try? await Self.served(b, pass))?.contains("STARS") == true }, "node B serves the new version")
                    let folderB = try String(contentsOf: foldersB.appendingPathComponent("Loyalty.pass/pass.json"), encoding: .utf8)
                    #expect(folderB.contains("\"POINTS\"") && !folderB.contains("STARS"))
                }
            }
            // A node started after the publish serves the new version too.
            try await Self.running(nodeC) { c in
                #expect(await eventually { (try? await Self.served(c, pass))?.contains("STARS") == true }, "a node started later too")
            }
            group.cancelAll()
        }
    }
}
