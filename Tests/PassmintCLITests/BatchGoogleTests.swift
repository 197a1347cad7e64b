import Foundation
import Passmint
import PassmintBatch
import PassmintStore
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint batch --google`: the report's `googleSaveURL` column, either the service's link (the object is sent to
/// Google when the link is first followed) or, with `--google-insert`, Google's own link once the batch has inserted
/// the class and objects itself (at the stand-in).
@Suite(.serialized, .offPool) struct BatchGoogleTests {
    static let issuerID = "3388000000022222222"
    static let type = "pass.dev.passmint.example"

    /// Three Generic rows, the second with its own photo.
    static func members(in folder: URL) throws -> (csv: URL, photo: [UInt8]) {
        let photo = TestPNG.make(width: 180, height: 180, rgba: (0x10, 0x80, 0x40, 0xFF))
        try Data(photo).write(to: folder.appendingPathComponent("member.png"))
        var csv = "serialNumber,memberName,firstName,memberId,plan,homeLocation,memberSince,validUntil,image:thumbnail@2x\n"
        for index in 1...3 {
            csv += "GB-\(index),Member \(index),M,PM-\(index),Flex,Berlin,2024-03-01T09:00:00+01:00,2027-02-28T23:59:00+01:00,"
            csv += index == 2 ? "member.png\n" : "\n"
        }
        let file = folder.appendingPathComponent("members.csv")
        try Data(csv.utf8).write(to: file)
        return (file, photo)
    }

    /// The report's header and rows.
    static func report(_ out: URL) throws -> (header: [String], rows: [[String]]) {
        var reader = try CSVReader(path: out.appendingPathComponent("batch-report.csv").path)
        let first = reader.next()
        let header = try #require(first).get().fields
        var rows: [[String]] = []
        while let record = reader.next() { rows.append(try record.get().fields) }
        return (header, rows)
    }

    @Test func theServiceLinkSendsTheObjectWhenFirstFollowed() throws {
        let chain = try TestEnvironment.devChain()
        let folder = TestEnvironment.temporaryFolder("batch-google-lazy")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (csv, _) = try Self.members(in: folder)
        let account = try TestServiceAccount(folder: folder)
        let standIn = try GoogleWalletStandIn(account: account, issuerID: Self.issuerID)
        defer { standIn.shutdown() }
        let keyFile = try account.writeKeyFile(tokenURI: standIn.tokenURL.absoluteString)
        let database = folder.appendingPathComponent("passes.sqlite").path
        let publicURL = "http://127.0.0.1:9/wallet"
        let out = folder.appendingPathComponent("out")
        let batch = try TestEnvironment.run(
            CreateCommandTests.binary,
            [
                "batch", "PassTemplates/Generic.pass", "--data", csv.path, "--out-dir", out.path, "--certificates", chain.path,
                "--register", database, "--public-url", publicURL, "--allow-http", "--no-files", "--google", "--quiet",
            ], environment: ["PASSMINT_LINK_SECRET": LazyIssuingTests.secret], in: TestEnvironment.repositoryRoot)
        #expect(batch.status == 0, "\(batch.stderr)")
        let (header, rows) = try Self.report(out)
        #expect(header == BatchReportWriter.columns + BatchReportWriter.linkColumns + ["googleSaveURL"])
        for row in rows { #expect(row[9].hasPrefix("\(publicURL)/google/save/\(Self.type)/\(row[1])?signature="), "\(row)") }
        #expect(standIn.received.isEmpty, "nothing is sent to Google before a link is followed")

        let server = try ServeProcess(
            arguments: [
                "serve", "--public-url", publicURL, "--allow-http", "--database-url", database, "--certificates", chain.path,
                "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path, "--apns-url",
                "https://127.0.0.1:9", "--google-service-account", keyFile.path, "--google-issuer-id", Self.issuerID,
                "--google-api-url", standIn.url.absoluteString,
            ], folder: folder, environment: ["PASSMINT_LINK_SECRET": LazyIssuingTests.secret])
        defer { server.stop() }
        #expect(server.waitUntilHealthy(), "the service did not start: \(server.output)")
        let followed = try ServeCommandTests.curl([
            "-s", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}",
            rows[1][9].replacingOccurrences(of: "http://127.0.0.1:9/", with: server.base + "/"),
        ])
        #expect(followed.stdout.hasPrefix("303 https://pay.google.com/gp/v/save/"), "\(followed.stdout)")
        let objectID = "\(Self.issuerID).\(Self.type).GB-2"
        #expect(standIn.stored("genericObject", id: objectID) != nil)
        #expect(standIn.stored("genericObject", id: "\(Self.issuerID).\(Self.type).GB-1") == nil, "only the followed link's object")
        let tampered = try ServeCommandTests.curl([
            "-s", "-o", "/dev/null", "-w", "%{http_code}",
            rows[1][9].replacingOccurrences(of: "http://127.0.0.1:9/", with: server.base + "/").replacingOccurrences(
                of: "GB-2", with: "GB-3"),
        ])
        #expect(tampered.stdout == "404")
    }

    static let publicURL = "https://passes.example.test/wallet"

    /// A `--google-insert` batch of ``members(in:)`` into `folder/out`, against a Google stand-in: its arguments and
    /// the stand-in (shut down by the caller).
    static func inserting(in folder: URL) throws -> (arguments: [String], standIn: GoogleWalletStandIn) {
        let (csv, _) = try members(in: folder)
        let account = try TestServiceAccount(folder: folder)
        let standIn = try GoogleWalletStandIn(account: account, issuerID: issuerID, imagePrefix: publicURL + "/google/images/")
        let keyFile = try account.writeKeyFile(tokenURI: standIn.tokenURL.absoluteString)
        let arguments = [
            "batch", "PassTemplates/Generic.pass", "--data", csv.path, "--out-dir", folder.appendingPathComponent("out").path,
            "--certificates", try TestEnvironment.devChain().path, "--public-url", publicURL, "--google", "--google-insert",
            "--google-service-account", keyFile.path, "--google-issuer-id", issuerID, "--google-api-url", standIn.url.absoluteString,
            "--quiet",
        ]
        return (arguments, standIn)
    }

    @Test func googleInsertSendsEveryObjectAndWritesGoogleLinks() throws {
        let folder = TestEnvironment.temporaryFolder("batch-google-insert")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (arguments, standIn) = try Self.inserting(in: folder)
        defer { standIn.shutdown() }
        let (publicURL, out) = (Self.publicURL, folder.appendingPathComponent("out"))
        let batch = try TestEnvironment.run(CreateCommandTests.binary, arguments, in: TestEnvironment.repositoryRoot)
        #expect(batch.status == 0, "\(batch.stderr)")
        let (header, rows) = try Self.report(out)
        #expect(header == BatchReportWriter.columns + ["googleSaveURL"])
        #expect(rows.count == 3)
        for row in rows {
            #expect(row[2] == "issued" && row[7].hasPrefix("https://pay.google.com/gp/v/save/"), "\(row)")
            let object = try #require(standIn.stored("genericObject", id: "\(Self.issuerID).\(Self.type).\(row[1])"), "\(row[1])")
            let images = GoogleWalletStandIn.imageURIs(in: .object(object))
            let photo = publicURL + "/google/images/passes/\(Self.type)/\(row[1])/"
            #expect(images.contains { $0.hasPrefix(photo) } == (row[1] == "GB-2"), "\(row[1]): \(images)")
        }
        let classCalls = standIn.received.filter { $0.path.contains("genericClass") }.map(\.method)
        #expect(classCalls == ["GET", "POST"], "the class is sent once")
    }

    /// The data-loss report of issue 39: `batch --register --google-insert` issued a list, the service then changed a
    /// pass (as `passmint update` or a PATCH would), and the same list run again with `--resume` put the old values
    /// back in the store and at Google. Now the changed pass is left as the service has it, named in the report and
    /// the warning, and Google's object is not patched.
    @Test func resumingAfterAServiceChangeRollsNothingBack() async throws {
        let folder = TestEnvironment.temporaryFolder("batch-google-rerun")
        defer { try? FileManager.default.removeItem(at: folder) }
        var (arguments, standIn) = try Self.inserting(in: folder)
        defer { standIn.shutdown() }
        let out = folder.appendingPathComponent("out")
        let database = folder.appendingPathComponent("passmint.sqlite").path
        arguments += ["--register", database]
        let first = try TestEnvironment.run(CreateCommandTests.binary, arguments, in: TestEnvironment.repositoryRoot)
        #expect(first.status == 0, "\(first.stderr)")

        // At the service: GB-1's plan changes (what `passmint update` and a PATCH write).
        let store = try SQLitePassStore(path: database)
        let before = try #require(try await store.pass(passTypeIdentifier: Self.type, serialNumber: "GB-1"))
        var data = try JSONParser.value(Array(before.dataJSON.utf8)).objectValue ?? [:]
        data["plan"] = "Premium"
        let changed = try #require(
            try await store.update(
                passTypeIdentifier: Self.type, serialNumber: "GB-1", dataJSON: JSONWriter.string(.object(data), style: .compact),
                voided: false))
        let objectID = "\(Self.issuerID).\(Self.type).GB-1"
        let writes = { standIn.received.filter { $0.method != "GET" && $0.path.hasSuffix(objectID) }.count }
        let writesBefore = writes()

        let again = try TestEnvironment.run(CreateCommandTests.binary, arguments + ["--resume"], in: TestEnvironment.repositoryRoot)
        #expect(again.status == 0, "nothing failed: \(again.stderr)")
        #expect(again.stderr.contains("1 row changed at the service") && again.stderr.contains("passmint update"), "\(again.stderr)")
        let stored = try #require(try await store.pass(passTypeIdentifier: Self.type, serialNumber: "GB-1"))
        #expect(stored.dataJSON.contains("Premium") && stored.updateTag == changed.pass.updateTag, "not rolled back, no new version")
        #expect(writes() == writesBefore, "Google's object is not patched back")
        let (_, rows) = try Self.report(out)
        let row = try #require(rows.first { $0[1] == "GB-1" })
        #expect(row[2] == "changed-at-service" && row[6].contains("passmint update"), "\(row)")
        #expect(row.last?.hasPrefix("https://pay.google.com/gp/v/save/") == true, "its link is still in the report")
        #expect(rows.filter { $0[1] != "GB-1" }.allSatisfy { $0[2] == "existing" }, "\(rows)")
    }
}
