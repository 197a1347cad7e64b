import Foundation
import Passmint
import PassmintBatch
import PassmintStore
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// Lazy issuing: `passmint batch --register … --no-files` records every row (checked as for a pass, photos included)
/// and writes the report with each member's links, signing nothing; `passmint serve` then signs each pass when its
/// link is first followed.
@Suite(.serialized, .offPool) struct LazyIssuingTests {
    static let secret = "lazy-issuing-link-secret-0123456789abcdef"

    @Test func recordedRowsBecomePassesWhenTheirLinkIsFollowed() async throws {
        let chain = try TestEnvironment.devChain()
        let folder = TestEnvironment.temporaryFolder("lazy")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
        let photo = TestPNG.make(width: 180, height: 180, rgba: (0x10, 0x80, 0x40, 0xFF))
        try Data(photo).write(to: folder.appendingPathComponent("photos/member.png"))
        var csv = "serialNumber,memberName,firstName,memberId,plan,homeLocation,memberSince,validUntil,image:thumbnail@2x\n"
        for index in 1...6 {
            let picture = index == 4 ? "photos/nobody.png" : index % 2 == 0 ? "" : "photos/member.png"
            csv +=
                "LAZY-\(index),Member \(index),M,PM-\(index),Flex,Berlin,2024-03-01T09:00:00+01:00,2027-02-28T23:59:00+01:00,\(picture)\n"
        }
        let data = folder.appendingPathComponent("members.csv")
        try Data(csv.utf8).write(to: data)
        let database = folder.appendingPathComponent("passes.sqlite").path
        // The public address links are made for; they are followed at the port `serve --port 0` took.
        let publicURL = "http://127.0.0.1:9/wallet"
        let out = folder.appendingPathComponent("out")
        let batch = try TestEnvironment.run(
            CreateCommandTests.binary,
            [
                "batch", "PassTemplates/Generic.pass", "--data", data.path, "--out-dir", out.path, "--certificates", chain.path,
                "--register", database, "--public-url", publicURL, "--allow-http", "--no-files", "--link-lifetime", "30d", "--json",
            ], environment: ["PASSMINT_LINK_SECRET": Self.secret], in: TestEnvironment.repositoryRoot)
        #expect(batch.status == 1, "row 4 names a photo that does not exist: \(batch.stderr)")
        let summary = try JSONParser.value(Array(batch.stdout.utf8))
        #expect(summary["recorded"] == 5 && summary["failed"] == 1 && summary["issued"] == 0, "\(batch.stdout)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(files == ["batch-report.csv"], "nothing is signed or written but the report")

        var reader = try CSVReader(path: out.appendingPathComponent("batch-report.csv").path)
        let first = reader.next()
        let header = try #require(first).get().fields
        #expect(header == BatchReportWriter.columns + BatchReportWriter.linkColumns)
        var rows: [[String]] = []
        while let record = reader.next() { rows.append(try record.get().fields) }
        #expect(rows.count == 6)
        #expect(rows[3][2] == "failed" && rows[3][6].contains("image:thumbnail@2x (photos/nobody.png): no such file"), "\(rows[3])")
        let store = try SQLitePassStore(path: database)
        for row in rows where row[2] != "failed" {
            #expect(row[2] == "recorded")
            #expect(row[7].hasPrefix(publicURL + "/download/pass.dev.passmint.example/\(row[1])?expires="), "\(row)")
            #expect(row[8].hasPrefix(publicURL + "/add/pass.dev.passmint.example/\(row[1])?expires="))
            let stored = try await store.pass(passTypeIdentifier: "pass.dev.passmint.example", serialNumber: row[1])
            #expect(stored?.authenticationToken == row[5])
        }
        #expect(try await store.pass(passTypeIdentifier: "pass.dev.passmint.example", serialNumber: "LAZY-4") == nil)

        // Run again (a resumed import): every recorded row is kept with its token, nothing is recorded twice.
        let again = try TestEnvironment.run(
            CreateCommandTests.binary,
            [
                "batch", "PassTemplates/Generic.pass", "--data", data.path, "--out-dir", out.path, "--certificates", chain.path,
                "--register", database, "--public-url", publicURL, "--allow-http", "--no-files", "--quiet",
            ], environment: ["PASSMINT_LINK_SECRET": Self.secret], in: TestEnvironment.repositoryRoot)
        #expect(again.status == 1, "\(again.stderr)")
        var second = try CSVReader(path: out.appendingPathComponent("batch-report.csv").path)
        var resumed: [[String]] = []
        _ = second.next()
        while let record = second.next() { resumed.append(try record.get().fields) }
        #expect(resumed.map { $0[2] } == ["existing", "existing", "existing", "failed", "existing", "existing"])
        #expect(resumed.map { $0[5] } == rows.map { $0[2] == "failed" ? "" : $0[5] }, "the stored tokens")

        // The service signs a recorded pass when its link is followed: with the member's photo, and it verifies.
        let server = try ServeProcess(
            arguments: [
                "serve", "--public-url", publicURL, "--allow-http", "--database-url", database, "--certificates", chain.path,
                "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path, "--apns-url",
                "https://127.0.0.1:9",
            ], folder: folder, environment: ["PASSMINT_LINK_SECRET": Self.secret])
        defer { server.stop() }
        #expect(server.waitUntilHealthy(), "the service did not start: \(server.output)")
        for (row, expectsPhoto) in [(rows[0], true), (rows[1], false)] {
            let pass = folder.appendingPathComponent("\(row[1]).pkpass").path
            let link = row[7].replacingOccurrences(of: "http://127.0.0.1:9/", with: server.base + "/")
            let fetched = try ServeCommandTests.curl(["-s", "-o", pass, "-w", "%{http_code}", link])
            #expect(fetched.stdout == "200", "\(row[7])")
            let verify = try TestEnvironment.run(
                CreateCommandTests.binary, ["verify", pass, "--ca", chain.appendingPathComponent("root.pem").path, "--allow-http"],
                in: TestEnvironment.repositoryRoot)
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
            let entries = try ZipArchive.read(try FileIO.read(pass, what: "pass"), source: pass)
            let thumbnail = entries.first { $0.name == "thumbnail@2x.png" }?.bytes
            #expect((thumbnail == photo) == expectsPhoto, "\(row[1])")
            let passJSON = try JSONParser.value(try #require(entries.first { $0.name == "pass.json" }).bytes)
            #expect(passJSON["authenticationToken"]?.stringValue == row[5])
        }
    }
}
