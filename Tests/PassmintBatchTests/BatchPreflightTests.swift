import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintBatch

/// Problems of the whole file said once, before any row runs and before anything is written; changed rows found by
/// `--resume`.
@Suite(.computeThreads) struct BatchPreflightTests {
    func runner(_ output: URL, template: String = BatchRunnerTests.loyalty, options: (inout BatchOptions) -> Void = { _ in }) throws
        -> BatchRunner
    {
        var batch = BatchOptions(outputFolder: output.path)
        options(&batch)
        return BatchRunner(
            template: try PassTemplate(folder: template), builder: PassBuilder(identity: try TestTemplates.identity()), options: batch)
    }

    func refusal(_ runner: BatchRunner, _ input: BatchInput) async -> String {
        do {
            _ = try await runner.run(input)
            return "not refused"
        } catch {
            return (error as? PassmintError)?.message ?? "\(error)"
        }
    }

    @Test func everyPlaceholderWithoutAColumnIsNamedAtOnce() async throws {
        let folder = TestEnvironment.temporaryFolder("preflight")
        let data = folder.appendingPathComponent("members.csv")
        try Data("Mitgliedsnummer;Name;Punkte\nM-1;Zoë;12\n".utf8).write(to: data)
        let output = folder.appendingPathComponent("out")
        let message = await refusal(try runner(output), try BatchInput(path: data.path))
        #expect(
            message
                == """
                data file \(data.path) has no column for 8 placeholders serialNumber, nfcMessage, memberId, tier, points, memberName, \
                pointsToNextReward, memberSince (its columns: Mitgliedsnummer, Name, Punkte): add these columns, or say which column \
                feeds each with --map "Column=placeholder,…" (or "map" in passmint.json), or give a value for every row with \
                --set placeholder=value (or "set"). The serial numbers' column: --map "Column=serialNumber" (or --serial-column \
                Column, "serialColumn" in passmint.json).
                """)
        #expect(!FileManager.default.fileExists(atPath: output.path), "nothing is written")
    }

    @Test func duplicatedSerialsAreRefusedBeforeAnyRow() async throws {
        let folder = TestEnvironment.temporaryFolder("preflight")
        var csv = BatchRunnerTests.header()
        for index in 1...6 { csv += BatchRunnerTests.row(index, serial: index == 4 || index == 6 ? "M-00002" : nil) }
        let data = folder.appendingPathComponent("members.csv")
        try Data(csv.utf8).write(to: data)
        let output = folder.appendingPathComponent("out")
        let message = await refusal(try runner(output), try BatchInput(path: data.path))
        #expect(
            message
                == "data file \(data.path) gives a serial number to more than one row: M-00002 (rows 2, 4, 6). Every card needs its own serial number (column serialNumber): fix these rows, then run again; nothing was issued"
        )
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func aFileInAnotherEncodingIsRefusedOnceNamingTheOption() async throws {
        let folder = TestEnvironment.temporaryFolder("preflight")
        var text = BatchRunnerTests.header()
        for index in 1...5 { text += BatchRunnerTests.row(index, name: "Jürgen Groß") }
        let data = folder.appendingPathComponent("members.csv")
        try Data(SpreadsheetExportTests.windows1252(text)).write(to: data)
        let message = await refusal(try runner(folder.appendingPathComponent("out")), try BatchInput(path: data.path))
        #expect(message.hasPrefix("data file \(data.path) cannot be read as UTF-8 (line 2 is the first that is not): "), "\(message)")
        #expect(message.contains("--encoding windows-1252"), "\(message)")
    }

    @Test func aTemplateOfAnotherPassTypeThanTheCertificateIsRefused() async throws {
        let folder = TestEnvironment.temporaryFolder("preflight")
        let template = folder.appendingPathComponent("Other.pass")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: BatchRunnerTests.loyalty), to: template)
        var json = try JSONParser.value(try FileIO.read(template.appendingPathComponent("pass.json").path, what: "")).objectValue!
        json["passTypeIdentifier"] = "pass.other.example"
        try Data(JSONWriter.data(.object(json))).write(to: template.appendingPathComponent("pass.json"))
        let data = folder.appendingPathComponent("members.csv")
        try Data((BatchRunnerTests.header() + BatchRunnerTests.row(1)).utf8).write(to: data)
        let message = await refusal(
            try runner(folder.appendingPathComponent("out"), template: template.path), try BatchInput(path: data.path))
        #expect(
            message.hasPrefix(
                "the template's passTypeIdentifier is \"pass.other.example\", but the signing identity holds a certificate for \"pass.dev.passmint.example\": sign with the Pass Type ID certificate of \"pass.other.example\""
            ), "\(message)")
    }

    @Test func emptyValuesInShownColumnsAreWarningsWithTheirRowsOrErrorsWhenRequired() async throws {
        let folder = TestEnvironment.temporaryFolder("preflight")
        var csv = BatchRunnerTests.header()
        for index in 1...5 { csv += BatchRunnerTests.row(index, name: index == 2 || index == 5 ? "" : "Zoë") }
        let data = folder.appendingPathComponent("members.csv")
        try Data(csv.utf8).write(to: data)
        let plan = try runner(folder.appendingPathComponent("out")).plan(for: try BatchInput(path: data.path))
        #expect(
            plan.warnings == [
                "warning: column memberName is empty on 2 rows (rows 2, 5): those cards show it blank; give --require memberName to refuse such rows"
            ])
        let strict = try runner(folder.appendingPathComponent("strict")) { $0.required = ["memberName"] }
        let result = try await strict.run(try BatchInput(path: data.path))
        #expect(result.issued == 3 && result.failed == 2)
        #expect(result.failures.lines == ["2 rows: memberName is empty (--require memberName) (rows 2, 5)"])
    }

    @Test func resumeIssuesChangedRowsAgainWithTheirTokens() async throws {
        let folder = TestEnvironment.temporaryFolder("preflight")
        let template = folder.appendingPathComponent("Loyalty.pass")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: BatchRunnerTests.loyalty), to: template)
        var json = try JSONParser.value(try FileIO.read(template.appendingPathComponent("pass.json").path, what: "")).objectValue!
        json["webServiceURL"] = "https://passes.example.com/wallet"
        try Data(JSONWriter.data(.object(json))).write(to: template.appendingPathComponent("pass.json"))
        let data = folder.appendingPathComponent("members.csv")
        var csv = BatchRunnerTests.header()
        for index in 1...6 { csv += BatchRunnerTests.row(index) }
        try Data(csv.utf8).write(to: data)
        let output = folder.appendingPathComponent("out")
        let first = try await runner(output, template: template.path).run(try BatchInput(path: data.path))
        #expect(first.issued == 6)
        let tokens = try BatchRunnerTests().readReport(output).dropFirst().map { $0[5] }

        csv = BatchRunnerTests.header()
        for index in 1...6 { csv += BatchRunnerTests.row(index, points: index == 2 || index == 3 ? "4000" : "1250") }
        try Data(csv.utf8).write(to: data)
        let resumed = try await runner(output, template: template.path) { $0.resume = true }.run(try BatchInput(path: data.path))
        #expect(resumed.existing == 4 && resumed.issued == 2 && resumed.reissued == 2, "\(resumed)")
        let report = try BatchRunnerTests().readReport(output).dropFirst()
        #expect(report.map { $0[2] } == ["existing", "issued", "issued", "existing", "existing", "existing"])
        #expect(report.map { $0[5] } == Array(tokens), "a pass issued again keeps its token")
        let pass = try FileIO.read(output.appendingPathComponent("M-00002.pkpass").path, what: "pass")
        let passJSON = try JSONParser.value(try #require(try ZipArchive.read(pass, source: "x").first { $0.name == "pass.json" }).bytes)
        #expect(passJSON["storeCard"]?["primaryFields"]?.arrayValue?.first?["value"] == 4000)
    }

    @Test func aJSONLinesRowWithoutAValueSaysWhatBatchAccepts() async throws {
        let folder = TestEnvironment.temporaryFolder("preflight")
        let data = folder.appendingPathComponent("members.jsonl")
        var row = try JSONParser.value(
            try FileIO.read(TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.json").path, what: "")
        ).objectValue!
        row["tier"] = nil
        try Data(JSONWriter.data(.object(row), style: .compact) + [0x0A]).write(to: data)
        let output = folder.appendingPathComponent("out")
        let result = try await runner(output).run(try BatchInput(path: data.path))
        #expect(result.failed == 1)
        let report = try String(contentsOf: output.appendingPathComponent("batch-report.csv"), encoding: .utf8)
        #expect(
            report.contains(
                "has no value: give the data a value named \"\"tier\"\" (batch: a column or JSON key of that name, or --map Column=tier; create: --data file or --set tier=…)"
            ), "\(report)")
    }
}
