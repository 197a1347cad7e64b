import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintBatch

/// `passmint batch --shard i/n`: n processes share one batch, each pass issued once, each bad row reported once.
@Suite(.computeThreads) struct BatchShardTests {
    @Test func shardsAreReadFromTextAndSplitSerialsStably() {
        #expect(BatchShard("3/8") == BatchShard(index: 3, count: 8))
        for bad in ["8/8", "-1/4", "1/0", "1", "a/b", "1/2/3", ""] { #expect(BatchShard(bad) == nil, "\(bad)") }
        // FNV-1a 64 of "M-00001" is 0xc81c88254b8be60a: shard 2 of 4 on every machine and in every version.
        let owners = (0..<4).filter { BatchShard(index: $0, count: 4)!.contains(serial: "M-00001") }
        #expect(owners == [2])
        let spread = (1...4_000).map { serial in (0..<4).first { BatchShard(index: $0, count: 4)!.contains(serial: "S-\(serial)") }! }
        for shard in 0..<4 { #expect((800...1_200).contains(spread.filter { $0 == shard }.count), "an even spread: shard \(shard)") }
    }

    @Test func threeShardsIssueEveryPassOnceAndReportEveryBadRowOnce() async throws {
        let folder = TestEnvironment.temporaryFolder("shards")
        var csv = BatchRunnerTests.header()
        for index in 1...60 {
            switch index {
            case 7: csv += BatchRunnerTests.row(index, serial: "")  // no serial
            case 20: csv += "M-00020,1,Zoë,Gold\n"  // too few fields
            case 33: csv += BatchRunnerTests.row(index, points: "lots")  // not a number
            default: csv += BatchRunnerTests.row(index)
            }
        }
        let data = folder.appendingPathComponent("members.csv")
        try Data(csv.utf8).write(to: data)
        let output = folder.appendingPathComponent("out")
        let template = try PassTemplate(folder: BatchRunnerTests.loyalty)
        let builder = PassBuilder(identity: try TestTemplates.identity())
        var issued = 0
        var failed = 0
        var reports = ""
        for index in 0..<3 {
            let shard = BatchShard(index: index, count: 3)!
            let runner = BatchRunner(template: template, builder: builder, options: BatchOptions(outputFolder: output.path, shard: shard))
            let result = try await runner.run(try BatchInput(path: data.path))
            issued += result.issued
            failed += result.failed
            #expect(result.issued > 5, "shard \(index) did its share: \(result.issued)")
            reports += try String(contentsOfFile: BatchReportWriter.path(folder: output.path, format: .csv, shard: shard), encoding: .utf8)
        }
        #expect(issued == 57 && failed == 3)
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".pkpass") }
        #expect(files.count == 57, "each pass written once, by one shard")
        // The reports concatenate into one CSV: one header, one line per row.
        let lines = reports.split(separator: "\n")
        #expect(lines.first == Substring(BatchReportWriter.columns.joined(separator: ",")))
        #expect(lines.filter { $0.hasPrefix("row,") }.count == 1)
        #expect(lines.count == 61)
        let rows = lines.dropFirst().map { Int($0.prefix { $0 != "," })! }
        #expect(Set(rows) == Set(1...60))
        #expect(lines.contains { $0.hasPrefix("33,") && $0.contains("row 33, column points: \"\"lots\"\" is not a number") })
    }
}
