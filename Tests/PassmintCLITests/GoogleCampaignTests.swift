import Foundation
import Passmint
import PassmintStore
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// A campaign through `passmint serve` with a Google account: 300 passes, each with its Google object, changed by one
/// bulk update; the service is killed with SIGKILL while the object patches go out (the stand-in answers each write
/// after 20 ms) and started again on the same store once the stand-in has carried out what the killed process had
/// already sent (as the one-minute lease of a real deployment outlasts any request in flight). Every object must end
/// changed, patched exactly once (the new node finds the patches the killed one sent but never settled already
/// made), with nothing left owed. The lease (`--push-lease 30s`) outlasts a round here: the stand-in writes one
/// object at a time, so a round of 100 takes 2 s alone and longer under the whole suite; with a 2 s lease the next
/// round took rows whose patches were still on the wire, and an object was patched twice (with the same body).
@Suite(.serialized, .offPool) struct GoogleCampaignTests {
    static let issuerID = "3388000000022222222"
    static let type = "pass.dev.passmint.example"
    static let passes = 300

    /// `curl -K`: one request per pass, all from one process.
    static func issueAll(_ server: ServeProcess, folder: URL) throws {
        var data = try JSONParser.value(
            try FileIO.read(TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.json").path, what: "")
        ).objectValue!
        var config = ""
        for index in 0..<passes {
            data["serialNumber"] = .string("GC-\(index)")
            let body = folder.appendingPathComponent("issue-\(index).json")
            try Data(JSONWriter.string(["template": "Loyalty", "data": .object(data)], style: .compact).utf8).write(to: body)
            config += """
                url = "\(server.base)/api/v1/passes"
                header = "Authorization: Bearer \(ServeProcess.apiKey)"
                header = "Accept: application/json"
                data-binary = "@\(body.path)"
                output = "/dev/null"
                write-out = "%{http_code}\\n"
                next

                """
        }
        let file = folder.appendingPathComponent("issue.curl")
        try Data(config.utf8).write(to: file)
        let issued = try ServeCommandTests.curl(["-s", "-K", file.path])
        #expect(issued.stdout.split(separator: "\n").filter { $0 == "201" }.count == passes, "\(issued.stdout.suffix(400))")
    }

    static func serve(_ folder: URL, database: String, chain: URL, keyFile: URL, standIn: GoogleWalletStandIn) throws -> ServeProcess {
        let server = try ServeProcess(
            arguments: [
                "serve", "--public-url", "http://127.0.0.1:9/wallet", "--allow-http", "--database-url", database, "--certificates",
                chain.path, "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path, "--apns-url",
                "https://127.0.0.1:9", "--push-lease", "30s", "--google-service-account", keyFile.path, "--google-issuer-id", issuerID,
                "--google-api-url", standIn.url.absoluteString,
            ], folder: folder)
        #expect(server.waitUntilHealthy(), "the service did not start: \(server.output)")
        return server
    }

    /// The points each stored object shows, by serial.
    static func points(_ standIn: GoogleWalletStandIn) -> [String: Int] {
        var points: [String: Int] = [:]
        for (id, object) in standIn.storedAll("loyaltyObject") {
            points[String(id.dropFirst("\(issuerID).\(type).".count))] = object["loyaltyPoints"]?["balance"]?["int"]?.numberValue?.intValue
        }
        return points
    }

    @Test func aCampaignKilledInTheMiddleLosesNoGoogleUpdate() async throws {
        let chain = try TestEnvironment.devChain()
        let folder = TestEnvironment.temporaryFolder("google-campaign")
        defer { try? FileManager.default.removeItem(at: folder) }
        let account = try TestServiceAccount(folder: folder)
        let standIn = try GoogleWalletStandIn(account: account, issuerID: Self.issuerID)
        defer { standIn.shutdown() }
        let keyFile = try account.writeKeyFile(tokenURI: standIn.tokenURL.absoluteString)
        let database = folder.appendingPathComponent("campaign.sqlite").path

        let first = try Self.serve(folder, database: database, chain: chain, keyFile: keyFile, standIn: standIn)
        try Self.issueAll(first, folder: folder)
        #expect(Self.points(standIn).count == Self.passes && standIn.patchCounts.isEmpty)

        standIn.delayWrites(0.02)
        let lines = (0..<Self.passes).map { index in
            JSONWriter.string(
                [
                    "passTypeIdentifier": .string(Self.type), "serialNumber": .string("GC-\(index)"),
                    "data": ["points": .number(JSONNumber(5000 + index))],
                ], style: .compact)
        }
        let campaign = folder.appendingPathComponent("campaign.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: campaign)
        let upload = try ServeCommandTests.curl([
            "-s", "-w", "\n%{http_code}", "-X", "POST", first.base + "/api/v1/updates", "-H",
            "Authorization: Bearer \(ServeProcess.apiKey)",
            "--data-binary", "@\(campaign.path)",
        ])
        #expect(upload.stdout.hasSuffix("202"), "\(upload.stdout)")
        #expect(first.waitFor(seconds: 120) { standIn.patchCounts.count >= 30 }, "patches began: \(first.output.suffix(2000))")
        first.kill()
        // Requests the killed process had written are still read and answered (its connections end after them); a
        // node started before that could read an object, then see the killed node's patch land, and patch it again.
        #expect(first.waitFor { standIn.openConnections == 0 }, "the killed process's connections ended")
        let atKill = standIn.patchCounts.count
        #expect(atKill < Self.passes, "the service was killed with patches still owed")

        standIn.delayWrites(0)
        let second = try Self.serve(folder, database: database, chain: chain, keyFile: keyFile, standIn: standIn)
        let changed = second.waitFor(seconds: 180) { Self.points(standIn).allSatisfy { $0.value == 5000 + Int($0.key.dropFirst(3))! } }
        #expect(changed, "every object shows its new points: \(second.output.suffix(2000))")
        #expect(second.stop() == 0)

        let counts = standIn.patchCounts.filter { $0.key.contains("loyaltyObject") }
        #expect(counts.count == Self.passes, "every object was patched")
        #expect(counts.values.allSatisfy { $0 == 1 }, "each exactly once: \(counts.filter { $0.value != 1 })")
        let store = try SQLitePassStore(path: database)
        let owed = try await store.outboxStatus(.googleObject)
        #expect(owed.depth == 0, "nothing left owed: \(owed)")
    }
}
