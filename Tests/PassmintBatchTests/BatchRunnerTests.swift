import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintBatch

@Suite(.computeThreads) struct BatchRunnerTests {
    static var loyalty: String { TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.pass").path }

    static func header() -> String { "serialNumber,memberId,memberName,tier,nfcMessage,points,pointsToNextReward,memberSince\n" }

    static func row(_ index: Int, serial: String? = nil, name: String = "Zoë Müller", points: String = "1250") -> String {
        let name = name.contains(",") || name.contains("\"") ? "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : name
        return
            "\(serial ?? String(format: "M-%05d", index)),\(100_000 + index),\(name),Gold,mlc:\(index),\(points),250,2024-03-01T00:00:00+01:00\n"
    }

    func readReport(_ folder: URL) throws -> [[String]] {
        var reader = try CSVReader(path: folder.appendingPathComponent("batch-report.csv").path)
        var lines: [[String]] = []
        while let record = reader.next() { lines.append(try record.get().fields) }
        return lines
    }

    /// The done-when case: 10,000 rows, a few deliberately bad ones, every good row one verified pass.
    @Test func tenThousandRowsWithBadOnes() async throws {
        let folder = TestEnvironment.temporaryFolder("batch")
        defer { try? FileManager.default.removeItem(at: folder) }  // 1.5 GB of passes in the largest case
        var csv = Self.header()
        var bad: [Int: String] = [:]
        for index in 1...10_000 {
            switch index {
            case 17:
                csv += "M-00017,100017,Zoë,Gold,mlc:17,1250,250\n"
                bad[index] = "has 7 field(s)"  // a missing value
            case 250:
                csv += Self.row(index, serial: "")
                bad[index] = "no serial number"
            case 500:
                csv += Self.row(index, points: "")
                bad[index] = "row 500, column points is empty, but the card shows a number there: fill it in"
            case 777:
                csv += Self.row(index, points: "lots")
                bad[index] = "row 777, column points: \"lots\" is not a number (write numbers like 1,234.5 or give --locale)"
            case 1000: csv += Self.row(index, name: "Dupont, Jean \"JD\"")
            case 1001: csv += Self.row(index, name: "李小龙")
            default: csv += Self.row(index)
            }
        }
        let data = folder.appendingPathComponent("members.csv")
        try Data(csv.utf8).write(to: data)
        let output = folder.appendingPathComponent("out")

        let runner = BatchRunner(
            template: try PassTemplate(folder: Self.loyalty), builder: PassBuilder(identity: try TestTemplates.identity()),
            options: BatchOptions(outputFolder: output.path))
        let result = try await runner.run(try BatchInput(path: data.path))
        #expect(result.rows == 10_000)
        #expect(result.failed == bad.count, "\(result)")
        #expect(result.issued == 10_000 - bad.count)

        let report = try readReport(output)
        #expect(report.first == BatchReportWriter.columns)
        #expect(report.count == 10_001)
        for line in report.dropFirst() {
            let row = Int(line[0])!
            if let reason = bad[row] {
                #expect(line[2] == "failed", "row \(row)")
                #expect(line[6].contains("row \(row)"), "\(line[6])")
                #expect(line[6].contains(reason), "\(line[6])")
            } else {
                #expect(line[2] == "issued", "row \(row): \(line[6])")
                #expect(line[4].count == 64)
            }
        }
        // Exactly one verified pass per good row, with the SHA-256 the report gives.
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".pkpass") }
        #expect(files.count == 10_000 - bad.count)
        let verifier = PassVerifier(root: try Certificate(contentsOf: TestEnvironment.devChain().appendingPathComponent("root.pem").path))
        let issued = report.dropFirst().filter { $0[2] == "issued" }
        let failures = await withTaskGroup(of: Int.self) { group in
            for chunk in stride(from: 0, to: issued.count, by: 500) {
                let slice = Array(issued[chunk..<min(chunk + 500, issued.count)])
                group.addTask {
                    var failed = 0
                    for line in slice {
                        guard let bytes = try? FileIO.read(output.appendingPathComponent(line[3]).path, what: "pass") else {
                            failed += 1
                            continue
                        }
                        let report = verifier.verify(bytes, source: line[3], lint: false)
                        if !report.isValid || Digest.sha256Hex(bytes) != line[4] { failed += 1 }
                    }
                    return failed
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        // Non-ASCII and quoted values made it into the passes.
        let entries = try ZipArchive.read(try FileIO.read(output.appendingPathComponent("M-01000.pkpass").path, what: "pass"), source: "x")
        let json = try JSONParser.value(try #require(entries.first { $0.name == "pass.json" }).bytes)
        #expect(JSONWriter.string(json).contains("Dupont, Jean \\\"JD\\\""))
        #expect(json["storeCard"]?["primaryFields"]?.arrayValue?.first?["value"] == 1250)
        // One independent check with openssl and Python.
        let check = try TestEnvironment.independentlyCheck(
            output.appendingPathComponent("M-01001.pkpass"), root: TestEnvironment.devChain().appendingPathComponent("root.pem"))
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func webServiceTemplatesGetAFreshTokenPerPassUnlessTheRowHasOne() async throws {
        let scratch = TestEnvironment.temporaryFolder("batch")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let template = scratch.appendingPathComponent("Loyalty.pass")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.loyalty), to: template)
        var json = try JSONParser.value(try FileIO.read(template.appendingPathComponent("pass.json").path, what: "")).objectValue!
        json["webServiceURL"] = "https://passes.example.com/wallet"
        try Data(JSONWriter.data(.object(json))).write(to: template.appendingPathComponent("pass.json"))
        let rows = scratch.appendingPathComponent("rows.jsonl")
        var lines = ""
        for index in 1...20 {
            var row: JSONObject = [
                "serialNumber": .string("T-\(index)"), "memberId": "1", "memberName": "A", "tier": "Gold", "nfcMessage": "m",
                "points": 5, "pointsToNextReward": 1, "memberSince": "2024-03-01T00:00:00Z",
            ]
            if index == 3 { row["authenticationToken"] = "given-token-0123456789" }
            lines += JSONWriter.string(.object(row), style: .compact) + "\n"
        }
        try Data(lines.utf8).write(to: rows)
        let output = scratch.appendingPathComponent("out")
        let runner = BatchRunner(
            template: try PassTemplate(folder: template.path), builder: PassBuilder(identity: try TestTemplates.identity()),
            options: BatchOptions(outputFolder: output.path, reportFormat: .jsonl))
        let result = try await runner.run(try BatchInput(path: rows.path))
        #expect(result.issued == 20)
        let report = String(decoding: try FileIO.read(output.appendingPathComponent("batch-report.jsonl").path, what: ""), as: UTF8.self)
        let entries = try report.split(separator: "\n").map { try JSONParser.value(Array($0.utf8)) }
        let tokens = entries.compactMap { $0["authenticationToken"]?.stringValue }
        #expect(Set(tokens).count == 20)
        #expect(tokens[2] == "given-token-0123456789")
        let attributes = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("batch-report.jsonl").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let pass = try ZipArchive.read(try FileIO.read(output.appendingPathComponent("T-5.pkpass").path, what: ""), source: "x")
        let passJSON = try JSONParser.value(try #require(pass.first { $0.name == "pass.json" }).bytes)
        #expect(passJSON["authenticationToken"]?.stringValue == tokens[4])
    }

    @Test func resumeKeepsValidPassesAndRebuildsDamagedOnes() async throws {
        let folder = TestEnvironment.temporaryFolder("batch")
        defer { try? FileManager.default.removeItem(at: folder) }  // 1.5 GB of passes in the largest case
        var csv = Self.header()
        for index in 1...30 { csv += Self.row(index) }
        let data = folder.appendingPathComponent("m.csv")
        try Data(csv.utf8).write(to: data)
        let output = folder.appendingPathComponent("out")
        let template = try PassTemplate(folder: Self.loyalty)
        let builder = PassBuilder(identity: try TestTemplates.identity())
        _ = try await BatchRunner(template: template, builder: builder, options: BatchOptions(outputFolder: output.path)).run(
            try BatchInput(path: data.path))
        // Damage one pass, delete another, leave a stray temporary file.
        try Data("garbage".utf8).write(to: output.appendingPathComponent("M-00003.pkpass"))
        try FileManager.default.removeItem(at: output.appendingPathComponent("M-00004.pkpass"))
        try Data("partial".utf8).write(to: output.appendingPathComponent(".M-00005.pkpass.0123456789ab.tmp"))
        let again = try await BatchRunner(
            template: template, builder: builder, options: BatchOptions(outputFolder: output.path, resume: true)
        )
        .run(try BatchInput(path: data.path))
        #expect(again.existing == 28)
        #expect(again.issued == 2)
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path)
        #expect(!names.contains { $0.hasSuffix(".tmp") })
        let report = try readReport(output)
        #expect(report.dropFirst().allSatisfy { $0[4].count == 64 })
    }
}
