import Foundation
import Passmint
import PassmintBatch
import PassmintStore
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint batch` as a process: kill -9 and resume, Ctrl-C, exit codes, JSON summary.
@Suite(.serialized, .offPool) struct BatchCommandTests {
    func membersFile(rows: Int, badRows: Set<Int> = [], serialPrefix: String = "K-") throws -> URL {
        var csv = "serialNumber,memberId,memberName,tier,nfcMessage,points,pointsToNextReward,memberSince\n"
        for index in 1...rows {
            let points = badRows.contains(index) ? "many" : "\(index)"
            csv += "\(serialPrefix)\(index),\(index),Zoë,Gold,mlc:\(index),\(points),250,2024-03-01T00:00:00+01:00\n"
        }
        let url = TestEnvironment.temporaryFolder("members").appendingPathComponent("members.csv")
        try Data(csv.utf8).write(to: url)
        return url
    }

    func launch(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CreateCommandTests.binary)
        process.arguments = arguments
        process.currentDirectoryURL = TestEnvironment.repositoryRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    func passCount(_ folder: URL) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".pkpass") && !$0.hasPrefix(".") }
            .count
    }

    /// Waits until at least `count` passes are in `folder`, which the batch is writing (woken at each file it writes).
    func waitForPasses(_ count: Int, in folder: URL) {
        _ = FolderWatch.wait(in: folder) { passCount(folder) >= count }
    }

    func reportRows(_ folder: URL) throws -> [[String]] {
        var reader = try CSVReader(path: folder.appendingPathComponent("batch-report.csv").path)
        var rows: [[String]] = []
        while let record = reader.next() { rows.append(try record.get().fields) }
        return Array(rows.dropFirst())
    }

    @Test func killedWithSIGKILLAndResumedEndsWithOnePassPerGoodRow() throws {
        let chain = try TestEnvironment.devChain()
        let rows = 1500
        let bad: Set<Int> = [10, 700]
        let data = try membersFile(rows: rows, badRows: bad)
        let output = TestEnvironment.temporaryFolder("killed").appendingPathComponent("out")
        let arguments = [
            "batch", "PassTemplates/Loyalty.pass", "--data", data.path, "--out-dir", output.path, "--certificates", chain.path, "--quiet",
        ]

        let process = try launch(arguments)
        waitForPasses(200, in: output)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let before = passCount(output)
        #expect(before < rows - bad.count, "the batch must be killed before it ends")

        let resumed = try TestEnvironment.run(
            CreateCommandTests.binary, arguments + ["--resume", "--json"], in: TestEnvironment.repositoryRoot)
        #expect(resumed.status == 1, "bad rows make the exit status 1")
        let summary = try JSONParser.value(Array(resumed.stdout.utf8))
        #expect(summary["failed"] == .number(JSONNumber(bad.count)))
        let existing = summary["existing"]?.numberValue?.intValue ?? 0
        let issued = summary["issued"]?.numberValue?.intValue ?? 0
        #expect(existing + issued == rows - bad.count)
        #expect(existing >= before - 2, "passes finished before the kill are kept")

        // Exactly one valid pass per good row, nothing else.
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path)
        #expect(!names.contains { $0.hasSuffix(".tmp") })
        #expect(passCount(output) == rows - bad.count)
        let verifier = PassVerifier(root: try Certificate(contentsOf: chain.appendingPathComponent("root.pem").path))
        let report = try reportRows(output)
        #expect(report.count == rows)
        for line in report {
            let row = Int(line[0])!
            if bad.contains(row) {
                #expect(line[2] == "failed")
                #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("K-\(row).pkpass").path))
            } else {
                #expect(line[2] == "issued" || line[2] == "existing")
                let bytes = try FileIO.read(output.appendingPathComponent(line[3]).path, what: "pass")
                #expect(verifier.verify(bytes, source: line[3], lint: false).isValid, "\(line[3])")
                #expect(Digest.sha256Hex(bytes) == line[4])
            }
        }
    }

    @Test func sigintStopsAfterThePassesInFlightWithTheReportFlushed() throws {
        let chain = try TestEnvironment.devChain()
        let data = try membersFile(rows: 5000)
        let output = TestEnvironment.temporaryFolder("interrupted").appendingPathComponent("out")
        let process = try launch([
            "batch", "PassTemplates/Loyalty.pass", "--data", data.path, "--out-dir", output.path, "--certificates", chain.path,
        ])
        waitForPasses(100, in: output)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let report = try reportRows(output)
        #expect(report.count > 0 && report.count < 5000)
        #expect(report.count == passCount(output), "every pass written is in the report, and the reverse")
        #expect(report.allSatisfy { $0[2] == "issued" })
        #expect(report.map { Int($0[0])! } == Array(1...report.count), "rows in input order, none missing")
    }

    @Test func progressLinesOnANonTerminalAndJSONSummary() throws {
        let chain = try TestEnvironment.devChain()
        let data = try membersFile(rows: 5)
        let output = TestEnvironment.temporaryFolder("small").appendingPathComponent("out")
        let plain = try TestEnvironment.run(
            CreateCommandTests.binary,
            ["batch", "PassTemplates/Loyalty.pass", "--data", data.path, "--out-dir", output.path, "--certificates", chain.path],
            in: TestEnvironment.repositoryRoot)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.contains("done:"))
        #expect(plain.stderr.contains("5 issued"))
        let json = try TestEnvironment.run(
            CreateCommandTests.binary,
            [
                "batch", "PassTemplates/Loyalty.pass", "--data", data.path, "--out-dir", output.path, "--certificates", chain.path,
                "--json", "--resume",
            ],
            in: TestEnvironment.repositoryRoot)
        #expect(json.status == 0)
        #expect(json.stderr.isEmpty)
        let summary = try JSONParser.value(Array(json.stdout.utf8))
        #expect(summary["existing"] == 5)
        #expect(summary["issued"] == 0)
    }

    @Test func shardsSplitTheRowsAndNameTheirReports() throws {
        let chain = try TestEnvironment.devChain()
        let data = try membersFile(rows: 12)
        let output = TestEnvironment.temporaryFolder("sharded").appendingPathComponent("out")
        var issued = 0
        for index in 0..<2 {
            let run = try TestEnvironment.run(
                CreateCommandTests.binary,
                [
                    "batch", "PassTemplates/Loyalty.pass", "--data", data.path, "--out-dir", output.path, "--certificates", chain.path,
                    "--shard", "\(index)/2", "--json",
                ],
                in: TestEnvironment.repositoryRoot)
            #expect(run.status == 0, "\(run.stderr)")
            let summary = try JSONParser.value(Array(run.stdout.utf8))
            issued += summary["issued"]?.numberValue?.intValue ?? 0
            #expect(summary["report"]?.stringValue?.hasSuffix("/batch-report.shard-\(index)-of-2.csv") == true, "\(summary)")
        }
        #expect(issued == 12)  // a shard that is not one: CommandParsingTests
    }

    @Test func passesGoIntoOneArchiveOrATarStreamOnStandardOutput() throws {
        let chain = try TestEnvironment.devChain()
        let data = try membersFile(rows: 4)
        let folder = TestEnvironment.temporaryFolder("sinks")
        let base = ["batch", "PassTemplates/Loyalty.pass", "--data", data.path, "--certificates", chain.path, "--quiet"]
        let archive = folder.appendingPathComponent("cards.zip").path
        let zipped = try TestEnvironment.run(
            CreateCommandTests.binary, base + ["--out-archive", archive], in: TestEnvironment.repositoryRoot)
        #expect(zipped.status == 0, "\(zipped.stderr)")
        let listing = try TestEnvironment.run("unzip", ["-Z1", archive])
        #expect(listing.stdout.split(separator: "\n") == ["K-1.pkpass", "K-2.pkpass", "K-3.pkpass", "K-4.pkpass"], "\(listing)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("batch-report.csv").path), "the report beside it")

        let tar = folder.appendingPathComponent("cards.tar").path
        let command = ([CreateCommandTests.binary] + base + ["--out", "-"]).map { "'\($0)'" }.joined(separator: " ") + " > '\(tar)'"
        let streamed = try TestEnvironment.run("/bin/sh", ["-c", command], in: TestEnvironment.repositoryRoot)
        #expect(streamed.status == 0, "\(streamed.stderr)")
        let entries = try TestEnvironment.run("tar", ["-tf", tar])
        #expect(entries.stdout.split(separator: "\n").last == "batch-report.csv" && entries.stdout.contains("K-3.pkpass"), "\(entries)")
    }

    /// Excel's "CSV" in a German locale: semicolons, Windows-1252, CRLF.
    @Test func semicolonWindows1252FileWithEncodingOption() throws {
        let chain = try TestEnvironment.devChain()
        var text = "serialNumber;memberId;memberName;tier;nfcMessage;points;pointsToNextReward;memberSince\r\n"
        for index in 1...3 { text += "W-\(index);\(index);J\u{FC}rgen M\u{FC}ller;Gold;mlc:\(index);12;250;2024-03-01T00:00:00+01:00\r\n" }
        let bytes = text.unicodeScalars.map { UInt8($0.value) }  // Latin-1 letters only: their Windows-1252 bytes
        let folder = TestEnvironment.temporaryFolder("excel-cli")
        let data = folder.appendingPathComponent("mitglieder.csv")
        try Data(bytes).write(to: data)
        let output = folder.appendingPathComponent("out")
        let base = ["batch", "PassTemplates/Loyalty.pass", "--data", data.path, "--out-dir", output.path, "--certificates", chain.path]

        let plain = try TestEnvironment.run(CreateCommandTests.binary, base, in: TestEnvironment.repositoryRoot)
        #expect(plain.status != 0, "the names are not UTF-8: the file is refused once, before any row")
        #expect(plain.stderr.contains("semicolon-separated (detected from the header)"))
        #expect(plain.stderr.contains("cannot be read as UTF-8 (line 2 is the first that is not)"), "\(plain.stderr)")
        #expect(plain.stderr.contains("--encoding windows-1252"), "\(plain.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path), "nothing is written")

        let converted = try TestEnvironment.run(
            CreateCommandTests.binary, base + ["--encoding", "windows-1252"], in: TestEnvironment.repositoryRoot)
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stderr.contains("Windows-1252, 8 columns"))
        #expect(try reportRows(output).allSatisfy { $0[2] == "issued" })

        let forced = try TestEnvironment.run(
            CreateCommandTests.binary, base + ["--delimiter", "comma"], in: TestEnvironment.repositoryRoot)
        #expect(forced.status != 0)
        #expect(forced.stderr.contains("--delimiter semicolon"), "\(forced.stderr)")  // an unknown --encoding: CommandParsingTests
    }

    @Test func registerRecordsEveryIssuedPassInTheServiceStore() async throws {
        let chain = try TestEnvironment.devChain()
        let data = try membersFile(rows: 6, badRows: [4])
        let folder = TestEnvironment.temporaryFolder("register")
        let database = folder.appendingPathComponent("passmint.sqlite").path
        var arguments = [
            "batch", "PassTemplates/Loyalty.pass", "--data", data.path, "--out-dir", folder.appendingPathComponent("out").path,
            "--certificates", chain.path, "--register", database, "--quiet",
        ]
        // The template has no webServiceURL: without the service's URL the passes could never be updated.
        let refused = try TestEnvironment.run(CreateCommandTests.binary, arguments, in: TestEnvironment.repositoryRoot)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--public-url"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path), "nothing is issued")
        arguments += ["--public-url", "https://passes.example.test/wallet/"]
        let first = try TestEnvironment.run(CreateCommandTests.binary, arguments, in: TestEnvironment.repositoryRoot)
        #expect(first.status == 1, "row 4 fails")
        // Resuming records nothing twice and fails nothing new.
        let again = try TestEnvironment.run(CreateCommandTests.binary, arguments + ["--resume"], in: TestEnvironment.repositoryRoot)
        #expect(again.status == 1, "\(again.stderr)")
        let store = try SQLitePassStore(path: database)
        let report = try reportRows(folder.appendingPathComponent("out"))
        for line in report {
            let stored = try await store.pass(passTypeIdentifier: "pass.dev.passmint.example", serialNumber: line[1])
            if line[0] == "4" {
                #expect(stored == nil)
            } else {
                #expect(stored?.template == "Loyalty")
                #expect(stored?.authenticationToken == line[5])
                #expect(line[5].count >= 22, "every pass gets its own token")
                let entries = try ZipArchive.read(
                    try FileIO.read(folder.appendingPathComponent("out/\(line[3])").path, what: "pass"), source: line[3])
                let passJSON = try JSONParser.value(try #require(entries.first { $0.name == "pass.json" }).bytes)
                #expect(passJSON["webServiceURL"] == "https://passes.example.test/wallet", "the service's URL, without the trailing slash")
                #expect(passJSON["authenticationToken"]?.stringValue == line[5])
                let values = try JSONParser.value(Array((stored?.dataJSON ?? "").utf8))
                #expect(values["points"] == .number(JSONNumber(Int(line[0])!)), "typed values are stored")
            }
        }
    }

    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests)) func registerRecordsIntoPostgreSQL() throws {
        let chain = try TestEnvironment.devChain()
        let prefix = "PG-\(UUID().uuidString.prefix(8))-"  // the database is shared by the whole run
        let data = try membersFile(rows: 4, badRows: [2], serialPrefix: prefix)
        let folder = TestEnvironment.temporaryFolder("register-pg")
        let url = try TestEnvironment.postgresURL()
        let arguments = [
            "batch", "PassTemplates/Loyalty.pass", "--data", data.path, "--out-dir", folder.appendingPathComponent("out").path,
            "--certificates", chain.path, "--register", url, "--public-url", "https://passes.example.test/wallet", "--quiet",
        ]
        let first = try TestEnvironment.run(CreateCommandTests.binary, arguments, in: TestEnvironment.repositoryRoot)
        #expect(first.status == 1, "row 2 fails: \(first.stderr)")
        let again = try TestEnvironment.run(CreateCommandTests.binary, arguments + ["--resume"], in: TestEnvironment.repositoryRoot)
        #expect(again.status == 1, "resuming records nothing twice: \(again.stderr)")
        // Read back with psql, independently of Passmint's PostgreSQL store.
        let query = try TestEnvironment.run(
            "psql",
            [
                url, "-tAc",
                "SELECT serial_number || '|' || authentication_token || '|' || template FROM passes WHERE serial_number LIKE '\(prefix)%' ORDER BY 1",
            ])
        #expect(query.status == 0, "\(query.stderr)")
        let stored = query.stdout.split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
        let report = try reportRows(folder.appendingPathComponent("out")).filter { $0[2] != "failed" }
        #expect(stored.map { $0[0] } == ["\(prefix)1", "\(prefix)3", "\(prefix)4"])
        #expect(Set(stored.map { $0[1] }) == Set(report.map { $0[5] }), "the tokens in the report are the stored ones")
        #expect(stored.allSatisfy { $0[2] == "Loyalty" })
    }
}
