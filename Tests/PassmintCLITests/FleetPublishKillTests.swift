import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// Two `passmint serve` nodes on one PostgreSQL database: the node a template's new version was published through is
/// killed for good while it gives the passes their new version, and the other node finishes the publish, each pass
/// given its new version once, each device pushed once.
@Suite(.offPool) struct FleetPublishKillTests {
    /// A templates folder of its own with the Loyalty template.
    static func templates(_ folder: URL, _ name: String) throws -> URL {
        let templates = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.pass"),
            to: templates.appendingPathComponent("Loyalty.pass"))
        return templates
    }

    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests))
    func aPublishWhoseNodeIsKilledIsFinishedByAnotherNodeEveryPassOnce() throws {
        let folder = TestEnvironment.temporaryFolder("fleet-publish")
        let chain = try TestEnvironment.devChain()
        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder)
        defer { apns.shutdown() }
        let database = try TestEnvironment.freshPostgresURL()
        let (templatesA, templatesB) = (try Self.templates(folder, "templates-a"), try Self.templates(folder, "templates-b"))
        func arguments(_ node: String, _ templates: URL) -> [String] {
            [
                "serve", "--public-url", "https://passes.example.test/wallet", "--database-url", database, "--certificates", chain.path,
                "--templates", templates.path, "--apns-url", apns.url.absoluteString, "--apns-ca",
                folder.appendingPathComponent("apns-server.pem").path, "--job-lease", "2s", "--jobs-folder",
                folder.appendingPathComponent("jobs-\(node)").path,
            ]
        }
        let receiving = try ServeProcess(arguments: arguments("a", templatesA), folder: folder)
        defer { receiving.kill() }
        let surviving = try ServeProcess(arguments: arguments("b", templatesB), folder: folder)
        defer { surviving.stop() }
        #expect(receiving.waitUntilHealthy(), "\(receiving.output)")
        #expect(surviving.waitUntilHealthy(), "\(surviving.output)")

        let count = 12
        let serials = (0..<count).map { "PUBLISH-\($0)-\(UUID().uuidString.prefix(6))" }
        var tokens: [String] = []
        var authentication: [String] = []
        for serial in serials {
            let token = String(repeating: String(format: "%02x", tokens.count + 16), count: 32)
            authentication.append(try receiving.issue(serial: serial))
            #expect(
                try receiving.register(serial: serial, token: authentication.last!, pushToken: token, device: "device-\(tokens.count)")
                    == "201")
            tokens.append(token)
        }
        #expect(receiving.waitFor { (try? FleetJobTests.psql(database, "SELECT count(*) FROM push_outbox")) == "0" })
        let before = apns.receivedCount

        // A transaction of the test's holds the last pass: the publish's new versions wait for it, after its check.
        let lock = try PassLock(database: database, serial: serials[count - 1])
        #expect(receiving.waitFor(seconds: 30) { lock.isHeld }, "the test holds the pass")

        // Node A's folder has the new version; node B's keeps the old one.
        let passJSON = templatesA.appendingPathComponent("Loyalty.pass/pass.json")
        try String(contentsOf: passJSON, encoding: .utf8).replacingOccurrences(of: "\"POINTS\"", with: "\"STARS\"").write(
            to: passJSON, atomically: true, encoding: .utf8)
        let accepted = try ServeCommandTests.curl([
            "-X", "POST", receiving.base + "/api/v1/templates/Loyalty/publish", "-H", "Authorization: Bearer \(ServeProcess.apiKey)",
            "-d", #"{"data":{"points":4321}}"#,
        ])
        let id = try #require(try JSONParser.value(Array(accepted.stdout.utf8))["id"]?.stringValue, "\(accepted.stdout)")
        #expect(receiving.waitFor(seconds: 60) { lock.isWaitedFor }, "the publish waits for the pass")
        let applied = "SELECT count(*) FROM passes WHERE data::jsonb ->> 'points' = '4321'"
        #expect(
            receiving.waitFor(seconds: 60) {
                let done = Int((try? FleetJobTests.psql(database, applied)) ?? "") ?? -1
                return (0..<count).contains(done) && apns.receivedCount == before + done
                    && (try? FleetJobTests.psql(database, "SELECT count(*) FROM push_outbox")) == "0"
            }, "the passes given their new version before the locked one were pushed")

        receiving.kill()  // SIGKILL, for good: its lease on the job is never renewed again
        lock.release()

        func job() -> JSONValue? {
            let answer = try? ServeCommandTests.curl([
                surviving.base + "/api/v1/jobs/\(id)", "-H", "Authorization: Bearer \(ServeProcess.apiKey)",
            ])
            return answer.flatMap { try? JSONParser.value(Array($0.stdout.utf8)) }
        }
        #expect(surviving.waitFor(seconds: 120) { job()?["state"] == "finished" }, "\(String(describing: job())) \(surviving.output)")
        let finished = try #require(job())
        #expect(finished["done"] == .number(JSONNumber(count)) && finished["changed"] == .number(JSONNumber(count)), "\(finished)")
        #expect(finished["failed"] == 0 && finished["kept"] == 0, "\(finished)")
        #expect(surviving.output.contains("taking over a job"), "\(surviving.output)")

        // Every pass given its new version once: one update event per pass, one push per device.
        #expect(try FleetJobTests.psql(database, "SELECT count(*) FROM pass_events WHERE kind = 'updated'") == String(count))
        #expect(try FleetJobTests.psql(database, applied) == String(count))
        #expect(surviving.waitFor(seconds: 30) { (try? FleetJobTests.psql(database, "SELECT count(*) FROM push_outbox")) == "0" })
        let pushed = apns.received.dropFirst(before).map(\.token)
        #expect(pushed.sorted() == tokens.sorted(), "each device pushed once: \(pushed)")
        // Node B serves the new version, whatever its own folder holds.
        let served = folder.appendingPathComponent("served.pkpass")
        _ = try ServeCommandTests.curl([
            "-o", served.path, surviving.base + "/wallet/v1/passes/pass.dev.passmint.example/\(serials[0])", "-H",
            "Authorization: ApplePass \(authentication[0])",
        ])
        let entries = try ZipArchive.read(try FileIO.read(served.path, what: "the served pass"), source: "the served pass")
        let json = String(decoding: try #require(entries.first { $0.name == "pass.json" }).bytes, as: UTF8.self)
        #expect(json.contains("\"STARS\"") && !json.contains("\"POINTS\""), "\(json)")
    }

    /// A transaction of the test's (psql, its own process) holding one pass `FOR UPDATE` until released.
    final class PassLock {
        let database: String
        let process = Process()
        let input = Pipe()

        init(database: String, serial: String) throws {
            self.database = database
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["psql", database, "-qtAX"]
            process.environment = ProcessInfo.processInfo.environment.merging(["PGAPPNAME": "publish-lock"]) { $1 }
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            input.fileHandleForWriting.write(
                Data("BEGIN;\nSELECT serial_number FROM passes WHERE serial_number = '\(serial)' FOR UPDATE;\n".utf8))
        }

        /// The transaction holds the pass.
        var isHeld: Bool {
            let held =
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'publish-lock' AND state = 'idle in transaction' AND query LIKE '%FOR UPDATE%'"
            return (try? FleetJobTests.psql(database, held)) == "1"
        }

        /// Another transaction waits for it.
        var isWaitedFor: Bool {
            let waiting = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            return Int((try? FleetJobTests.psql(database, waiting)) ?? "") ?? 0 >= 1
        }

        func release() {
            input.fileHandleForWriting.write(Data("COMMIT;\n".utf8))
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }
}
