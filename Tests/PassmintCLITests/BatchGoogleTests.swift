import Foundation
import Passmint
import PassmintBatch
import PassmintTestSupport
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

    @Test func googleInsertSendsEveryObjectAndWritesGoogleLinks() throws {
        let chain = try TestEnvironment.devChain()
        let folder = TestEnvironment.temporaryFolder("batch-google-insert")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (csv, _) = try Self.members(in: folder)
        let publicURL = "https://passes.example.test/wallet"
        let account = try TestServiceAccount(folder: folder)
        let standIn = try GoogleWalletStandIn(account: account, issuerID: Self.issuerID, imagePrefix: publicURL + "/google/images/")
        defer { standIn.shutdown() }
        let keyFile = try account.writeKeyFile(tokenURI: standIn.tokenURL.absoluteString)
        let out = folder.appendingPathComponent("out")
        let batch = try TestEnvironment.run(
            CreateCommandTests.binary,
            [
                "batch", "PassTemplates/Generic.pass", "--data", csv.path, "--out-dir", out.path, "--certificates", chain.path,
                "--public-url", publicURL, "--google", "--google-insert", "--google-service-account", keyFile.path,
                "--google-issuer-id", Self.issuerID, "--google-api-url", standIn.url.absoluteString, "--quiet",
            ], in: TestEnvironment.repositoryRoot)
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
}
