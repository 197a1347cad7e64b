import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// Two `passmint serve` nodes on one PostgreSQL database: the node that received a bulk update is killed for good in the
/// middle of it, and the other node finishes the job, every line applied once.
@Suite(.offPool) struct FleetJobTests {
    /// Runs `sql` with psql; its output, trimmed.
    static func psql(_ url: String, _ sql: String) throws -> String {
        let result = try TestEnvironment.run("/usr/bin/env", ["psql", url, "-qtAX", "-v", "ON_ERROR_STOP=1", "-c", sql])
        #expect(result.status == 0, "\(sql): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests))
    func aJobWhoseNodeIsKilledIsFinishedByAnotherNodeEveryLineOnce() throws {
        let folder = TestEnvironment.temporaryFolder("fleet-job")
        let chain = try TestEnvironment.devChain()
        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder)
        defer { apns.shutdown() }
        let database = try TestEnvironment.freshPostgresURL()
        func arguments(_ node: String) -> [String] {
            [
                "serve", "--public-url", "https://passes.example.test/wallet", "--database-url", database, "--certificates", chain.path,
                "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path, "--apns-url",
                apns.url.absoluteString, "--apns-ca", folder.appendingPathComponent("apns-server.pem").path, "--job-lease", "2s",
                "--jobs-folder", folder.appendingPathComponent("jobs-\(node)").path,
            ]
        }
        let receiving = try ServeProcess(arguments: arguments("a"), folder: folder)
        defer { receiving.kill() }
        let surviving = try ServeProcess(arguments: arguments("b"), folder: folder)
        defer { surviving.stop() }
        #expect(receiving.waitUntilHealthy(), "\(receiving.output)")
        #expect(surviving.waitUntilHealthy(), "\(surviving.output)")

        // Passes, each on a device of its own.
        let count = 12
        let serials = (0..<count).map { "FLEET-\($0)-\(UUID().uuidString.prefix(6))" }
        var tokens: [String] = []
        for serial in serials {
            let token = String(repeating: String(format: "%02x", tokens.count + 16), count: 32)
            let registered = try receiving.register(
                serial: serial, token: try receiving.issue(serial: serial), pushToken: token, device: "device-\(tokens.count)")
            #expect(registered == "201")
            tokens.append(token)
        }
        #expect(receiving.waitFor { (try? Self.psql(database, "SELECT count(*) FROM push_outbox")) == "0" })
        let before = apns.receivedCount

        // A transaction of the test's holds the last pass: the receiving node's job waits for it in the middle of its
        // chunk, with the other lines applied and their pushes sent.
        let locker = Process()
        locker.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        locker.arguments = ["psql", database, "-qtAX"]
        locker.environment = ProcessInfo.processInfo.environment.merging(["PGAPPNAME": "fleet-lock"]) { $1 }
        let input = Pipe()
        locker.standardInput = input
        locker.standardOutput = FileHandle.nullDevice
        try locker.run()
        let locked = serials[count - 1]
        input.fileHandleForWriting.write(
            Data("BEGIN;\nSELECT serial_number FROM passes WHERE serial_number = '\(locked)' FOR UPDATE;\n".utf8))
        let held =
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'fleet-lock' AND state = 'idle in transaction' AND query LIKE '%FOR UPDATE%'"
        #expect(receiving.waitFor(seconds: 30) { (try? Self.psql(database, held)) == "1" }, "the test holds the pass")

        let upload = folder.appendingPathComponent("updates.jsonl")
        let lines = serials.map { #"{"passTypeIdentifier":"pass.dev.passmint.example","serialNumber":"\#($0)","data":{"points":4321}}"# }
        try lines.joined(separator: "\n").write(to: upload, atomically: true, encoding: .utf8)
        let accepted = try ServeCommandTests.curl([
            "-X", "POST", receiving.base + "/api/v1/updates", "-H", "Authorization: Bearer \(ServeProcess.apiKey)",
            "--data-binary", "@\(upload.path)",
        ])
        let id = try #require(try JSONParser.value(Array(accepted.stdout.utf8))["id"]?.stringValue, "\(accepted.stdout)")
        let waiting = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        #expect(receiving.waitFor(seconds: 60) { Int((try? Self.psql(database, waiting)) ?? "") ?? 0 >= 1 }, "the job waits for the pass")
        // Lines committed before the locked one are pushed; with PostgreSQL's group commit those in the locked pass's
        // group wait with it, so how many were applied depends on how the lines were grouped.
        let applied = "SELECT count(*) FROM passes WHERE data::jsonb ->> 'points' = '4321'"
        #expect(
            receiving.waitFor(seconds: 60) {
                let done = Int((try? Self.psql(database, applied)) ?? "") ?? -1
                return (0..<count).contains(done) && apns.receivedCount == before + done
                    && (try? Self.psql(database, "SELECT count(*) FROM push_outbox")) == "0"
            }, "the lines applied before the locked one were pushed")

        receiving.kill()  // SIGKILL, for good: its lease on the job is never renewed again
        input.fileHandleForWriting.write(Data("COMMIT;\n".utf8))
        try input.fileHandleForWriting.close()
        locker.waitUntilExit()

        // The other node takes the job over once the lease has passed, and answers for it.
        func job() -> JSONValue? {
            let answer = try? ServeCommandTests.curl([
                surviving.base + "/api/v1/jobs/\(id)", "-H", "Authorization: Bearer \(ServeProcess.apiKey)",
            ])
            return answer.flatMap { try? JSONParser.value(Array($0.stdout.utf8)) }
        }
        #expect(surviving.waitFor(seconds: 120) { job()?["state"] == "finished" }, "\(String(describing: job())) \(surviving.output)")
        let finished = try #require(job())
        #expect(finished["done"] == .number(JSONNumber(count)) && finished["changed"] == .number(JSONNumber(count)), "\(finished)")
        #expect(finished["failed"] == 0 && finished["unchanged"] == 0, "\(finished)")
        #expect(surviving.output.contains("taking over a job"), "\(surviving.output)")

        // Every line applied once: one update event and one new version per pass, one push per device.
        #expect(try Self.psql(database, "SELECT count(*) FROM pass_events WHERE kind = 'updated'") == String(count))
        let changed = try Self.psql(database, applied)
        #expect(changed == String(count))
        #expect(surviving.waitFor(seconds: 30) { (try? Self.psql(database, "SELECT count(*) FROM push_outbox")) == "0" })
        let pushed = apns.received.dropFirst(before).map(\.token)
        #expect(pushed.sorted() == tokens.sorted(), "each device pushed once: \(pushed)")
        #expect(try Self.psql(database, "SELECT count(*) FROM update_job_uploads") == "0", "the upload goes when its job ends")
    }
}
