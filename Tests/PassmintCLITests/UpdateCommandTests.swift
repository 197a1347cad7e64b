import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint update` against a running `passmint serve`: a CSV of changes, then a template published.
@Suite(.offPool) struct UpdateCommandTests {
    @Test func aCSVOfChangesAndATemplatePublishedReachTheService() throws {
        let folder = TestEnvironment.temporaryFolder("update")
        let chain = try TestEnvironment.devChain()
        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder)
        defer { apns.shutdown() }
        let server = try ServeProcess(
            arguments: [
                "serve", "--public-url", "https://passes.example.test/wallet", "--database-url",
                folder.appendingPathComponent("u.sqlite").path,
                "--certificates", chain.path, "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path,
                "--apns-url", apns.url.absoluteString, "--apns-ca", folder.appendingPathComponent("apns-server.pem").path,
            ], folder: folder)
        defer { server.stop() }
        #expect(server.waitUntilHealthy(), "\(server.output)")
        let serials = (1...3).map { "UPD-\($0)-\(UUID().uuidString.prefix(6))" }
        var tokens: [String] = []
        for serial in serials { tokens.append(try server.issue(serial: serial)) }
        let device = String(repeating: "7e", count: 32)
        #expect(try server.register(serial: serials[0], token: tokens[0], pushToken: device) == "201")

        let changes = folder.appendingPathComponent("changes.csv")
        try """
        serialNumber,points,voided
        \(serials[0]),100,
        \(serials[1]),200,true
        NO-SUCH-PASS,5,
        \(serials[2]),300,maybe

        """.write(to: changes, atomically: true, encoding: .utf8)
        let environment = ["PASSMINT_API_KEY": ServeProcess.apiKey]
        let update = try TestEnvironment.run(
            CreateCommandTests.binary,
            ["update", "--service", server.base, "--data", changes.path, "--pass-type", "pass.dev.passmint.example", "--json"],
            environment: environment, in: folder)
        #expect(update.status == 1, "rows failed: \(update.stderr)")
        let job = try JSONParser.value(Array(update.stdout.utf8))
        // One count of failures, the one the failures file holds: the service's (NO-SUCH-PASS) and the row refused here.
        #expect(job["state"] == "finished" && job["changed"] == 2 && job["failed"] == 2, "\(update.stdout)")
        #expect(job["failedBeforeUpload"] == 1, "\(update.stdout)")
        let report = try String(contentsOf: folder.appendingPathComponent("changes.csv.failures.csv"), encoding: .utf8)
        let rows = report.split(separator: "\n")
        #expect(rows.count == 3, "\(report)")
        #expect(rows[1].hasPrefix("3,4,NO-SUCH-PASS,") && rows[1].contains("no pass"), "\(report)")
        #expect(rows[2] == "4,5,\(serials[2]),\"row 4, column voided: \"\"maybe\"\" is not yes or no (write true or false)\"", "\(report)")
        let metadata = try ServeCommandTests.curl([
            server.base + "/api/v1/passes/pass.dev.passmint.example/\(serials[1])", "-H", "Authorization: Bearer \(ServeProcess.apiKey)",
        ])
        let pass = try JSONParser.value(Array(metadata.stdout.utf8))
        #expect(pass["data"]?["points"] == 200 && pass["voided"] == true, "\(metadata.stdout)")
        #expect(server.waitFor { apns.received.map(\.token) == [device] }, "the changed pass's device was pushed")

        let publish = try TestEnvironment.run(
            CreateCommandTests.binary, ["update", "--service", server.base, "--publish", "Loyalty", "--set", "tier=Platinum", "--json"],
            environment: environment, in: folder)
        #expect(publish.status == 0, "\(publish.stderr)")
        let published = try JSONParser.value(Array(publish.stdout.utf8))
        #expect(published["kind"] == "template" && published["changed"] == 3 && published["failed"] == 0, "\(publish.stdout)")
        #expect(server.waitFor { apns.received.count == 2 }, "pushed again after the template changed")

        // Issue 39: without a template, a column matching nothing is said to be kept under its own name (it is sent),
        // not "not used"; the accepted job's id is printed with how to follow it again; --follow follows a job.
        let plain = folder.appendingPathComponent("points.csv")
        try "serialNumber,points\n\(serials[0]),150\n".write(to: plain, atomically: true, encoding: .utf8)
        let told = try TestEnvironment.run(
            CreateCommandTests.binary,
            ["update", "--service", server.base, "--data", plain.path, "--pass-type", "pass.dev.passmint.example"],
            environment: environment, in: folder)
        #expect(told.status == 0, "\(told.stderr)")
        let kept = told.stderr.contains("points: no placeholder of that name; kept in the data")
        #expect(kept && !told.stderr.contains("not used"), "\(told.stderr)")
        let accepted = try #require(told.stderr.split(separator: "\n").first { $0.hasPrefix("job ") && $0.contains(" accepted") })
        let id = String(accepted.dropFirst(4).prefix { $0 != " " })
        #expect(accepted.contains("passmint update --follow \(id) --service \(server.base)"), "\(accepted)")
        let followed = try TestEnvironment.run(
            CreateCommandTests.binary, ["update", "--service", server.base, "--follow", id, "--json"], environment: environment, in: folder)
        #expect(followed.status == 0, "\(followed.stderr)")
        #expect(try JSONParser.value(Array(followed.stdout.utf8))["changed"] == 1, "\(followed.stdout)")

        let missingKey = try TestEnvironment.run(
            CreateCommandTests.binary, ["update", "--service", server.base, "--publish", "Loyalty"], environment: ["PASSMINT_API_KEY": ""],
            in: folder)
        #expect(missingKey.status != 0 && missingKey.stderr.contains("PASSMINT_API_KEY"), "\(missingKey.stderr)")
    }
}
