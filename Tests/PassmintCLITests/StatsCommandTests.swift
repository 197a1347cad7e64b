import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint stats` against a running `passmint serve`: the table sums to what the service recorded, `--csv` prints the
/// service's CSV, `--template` filters, and a wrong key is refused with the service's message.
@Suite(.offPool) struct StatsCommandTests {
    @Test func printsTheServicesStatisticsAsATable() throws {
        let folder = TestEnvironment.temporaryFolder("stats")
        let server = try ServeProcess(
            arguments: [
                "serve", "--public-url", "https://passes.example.test/wallet", "--database-url",
                folder.appendingPathComponent("stats.sqlite").path, "--certificates", try TestEnvironment.devChain().path,
                "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path, "--apns-url",
                "https://127.0.0.1:9",
            ], folder: folder)
        defer { server.stop() }
        #expect(server.waitUntilHealthy(), "the service did not start: \(server.output)")
        let token = try server.issue(serial: "STATS-1")
        _ = try server.issue(serial: "STATS-2")
        #expect(try server.register(serial: "STATS-1", token: token, pushToken: String(repeating: "ab", count: 32)) == "201")

        func stats(_ arguments: [String], key: String = ServeProcess.apiKey) throws -> TestEnvironment.ProcessResult {
            try TestEnvironment.run(
                CreateCommandTests.binary, ["stats", "--url", server.base] + arguments, environment: ["PASSMINT_API_KEY": key])
        }
        let table = try stats(["--since", "2d"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.split(separator: " ").prefix(8).joined(separator: " ")
                == "day (UTC) issued viewed downloaded installed removed active",
            "\(table.stdout)")
        let rows = lines.dropFirst().filter { $0.first?.isNumber == true }.map { $0.split(separator: " ").map(String.init) }
        #expect(rows.count >= 2 && rows.count <= 4, "two days back, rounded out to whole days: \(table.stdout)")
        func sum(_ column: Int) -> Int { rows.reduce(0) { $0 + (Int($1[column]) ?? -1000) } }
        #expect(sum(1) == 2 && sum(4) == 1 && sum(5) == 0, "issued, installed, removed: \(table.stdout)")
        #expect(rows.last?[6] == "1", "one pass on a device at the end")
        #expect(table.stdout.contains("now: 1 passes on 1 devices (1 devices per pass)"))

        let csv = try stats(["--since", "1d", "--csv", "--template", "Coupon"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let csvLines = csv.stdout.split(separator: "\r\n").map(String.init)
        #expect(csvLines.first?.hasPrefix("start,issued,linkViews,downloads,installs,removals,activePasses") == true)
        #expect(csvLines.dropFirst().allSatisfy { $0.hasSuffix(",0,0,0,0,0,0,0,0,0,0,0,0") }, "no Coupon pass: \(csv.stdout)")

        let refused = try stats([], key: "wrong-key-0123456789")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("answered 401"), "\(refused.stderr)")

        // Issue 39: one name and one project file for every command: --service, as update takes it, or passmint.json's
        // "service" (the older --url still works, as above).
        try Data(#"{"service": "\#(server.base)"}"#.utf8).write(to: folder.appendingPathComponent("passmint.json"))
        let fromProject = try TestEnvironment.run(
            CreateCommandTests.binary, ["stats", "--since", "1d"], environment: ["PASSMINT_API_KEY": ServeProcess.apiKey], in: folder)
        #expect(fromProject.status == 0 && fromProject.stdout.contains("now: 1 passes"), "\(fromProject.stderr)")
        let named = try TestEnvironment.run(
            CreateCommandTests.binary, ["stats", "--service", server.base, "--since", "1d"],
            environment: ["PASSMINT_API_KEY": ServeProcess.apiKey])
        #expect(named.status == 0, "\(named.stderr)")
    }
}
