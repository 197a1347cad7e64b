import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintBatch

/// `--out-archive` and `--out -`: a batch that pays one file, not one per pass.
@Suite(.computeThreads) struct BatchOutputTests {
    func members(_ count: Int) throws -> URL {
        var csv = BatchRunnerTests.header()
        for index in 1...count { csv += BatchRunnerTests.row(index) }
        let url = TestEnvironment.temporaryFolder("members").appendingPathComponent("members.csv")
        try Data(csv.utf8).write(to: url)
        return url
    }

    func run(_ data: URL, folder: URL, output: BatchOutput, resume: Bool = false) async throws -> BatchProgress {
        let runner = BatchRunner(
            template: try PassTemplate(folder: BatchRunnerTests.loyalty), builder: PassBuilder(identity: try TestTemplates.identity()),
            options: BatchOptions(outputFolder: folder.path, resume: resume, output: output))
        return try await runner.run(try BatchInput(path: data.path))
    }

    /// What Python's zipfile (an independent reader, ZIP64 included) says of an archive: its names, and the first bad
    /// entry of `testzip()`.
    func pythonListing(_ path: String) throws -> [String] {
        let script = "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint('\\n'.join(z.namelist()))"
        let result = try TestEnvironment.run("python3", ["-c", script, path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func anArchiveHoldsEveryPassStoredAndVerifiable() async throws {
        let folder = TestEnvironment.temporaryFolder("archive")
        let archive = folder.appendingPathComponent("cards.zip").path
        let result = try await run(try members(25), folder: folder, output: .archive(path: archive))
        #expect(result.issued == 25)
        let names = try pythonListing(archive)
        #expect(names == (1...25).map { String(format: "M-%05d.pkpass", $0) }, "in row order")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!files.contains { $0.hasSuffix(".pkpass") }, "no file per pass")
        let limits = ZipLimits(maximumEntries: 100, maximumEntryBytes: 1 << 24, maximumTotalBytes: 1 << 28, maximumRatio: .max)
        let entries = try ZipArchive.read(try FileIO.read(archive, what: "archive"), source: archive, limits: limits)
        #expect(entries.allSatisfy { !$0.compressed })
        let report = PassVerifier().verify(entries[3].bytes, source: entries[3].name)
        #expect(report.isValid, "\(report.checks.filter { $0.status == .failed })")
    }

    @Test func anArchiveCutShortByACrashIsResumed() async throws {
        let folder = TestEnvironment.temporaryFolder("archive-resume")
        let archive = folder.appendingPathComponent("cards.zip").path
        _ = try await run(try members(12), folder: folder, output: .archive(path: archive))
        // A crash in the middle of entry 10: no central directory, entry 10 half written.
        let bytes = try FileIO.read(archive, what: "archive")
        let names = try pythonListing(archive)
        #expect(names.count == 12)
        let tenth = try #require(
            bytes.indices.first { index in
                index + 20 < bytes.count && Array(bytes[index..<(index + 14)]) == Array("M-00010.pkpass".utf8)
            })
        try Data(bytes[..<(tenth + 5_000)]).write(to: URL(fileURLWithPath: archive))
        let resumed = try await run(try members(20), folder: folder, output: .archive(path: archive), resume: true)
        #expect(resumed.existing == 9 && resumed.issued == 11, "\(resumed)")
        #expect(try pythonListing(archive) == (1...20).map { String(format: "M-%05d.pkpass", $0) }, "every pass once, in order")
        let report = try String(contentsOf: folder.appendingPathComponent("batch-report.csv"), encoding: .utf8)
        #expect(report.contains("\n9,M-00009,existing,M-00009.pkpass,"), "\(report.prefix(600))")
    }

    @Test func manyEntriesGetZIP64Records() throws {
        let path = TestEnvironment.temporaryFolder("zip64").appendingPathComponent("many.zip").path
        let writer = try PassArchiveWriter(path: path, resume: false)
        for index in 0..<70_000 { try writer.append(name: "e\(index)", bytes: [UInt8(index & 0xFF)]) }
        try writer.finish()
        let names = try pythonListing(path)
        #expect(names.count == 70_000 && names.last == "e69999")
    }

    @Test func aTarStreamCarriesThePassesAndTheReportLast() async throws {
        let folder = TestEnvironment.temporaryFolder("tar")
        let stream = folder.appendingPathComponent("cards.tar")
        _ = FileManager.default.createFile(atPath: stream.path, contents: nil)
        let handle = try FileHandle(forWritingTo: stream)
        let result = try await run(
            try members(6), folder: folder.appendingPathComponent("report"), output: .tarStream(fileDescriptor: handle.fileDescriptor))
        try handle.close()
        #expect(result.issued == 6)
        let listing = try TestEnvironment.run("tar", ["-tf", stream.path])
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(
            listing.stdout.split(separator: "\n") == (1...6).map { Substring(String(format: "M-%05d.pkpass", $0)) } + ["batch-report.csv"])
        let extracted = folder.appendingPathComponent("x")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        #expect(try TestEnvironment.run("tar", ["-xf", stream.path, "-C", extracted.path]).status == 0)
        let pass = try FileIO.read(extracted.appendingPathComponent("M-00002.pkpass").path, what: "pass")
        #expect(PassVerifier().verify(pass, source: "M-00002.pkpass").isValid)
    }

    @Test func aLongNameGoesIntoAPAXHeader() throws {
        let path = TestEnvironment.temporaryFolder("pax").appendingPathComponent("long.tar")
        _ = FileManager.default.createFile(atPath: path.path, contents: nil)
        let handle = try FileHandle(forWritingTo: path)
        let writer = PassTarWriter(fileDescriptor: handle.fileDescriptor)
        let name = String(repeating: "Ünïcode-", count: 20) + ".pkpass"
        try writer.append(name: name, bytes: Array("hello".utf8))
        try writer.finish(reportAt: nil)
        try handle.close()
        let listing = try TestEnvironment.run("tar", ["-tf", path.path])
        #expect(listing.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == name, "\(listing)")
    }

    @Test func aReportOfManyMegabytesIsCopiedIntoTheStreamWhole() throws {
        let folder = TestEnvironment.temporaryFolder("tar-report")
        let report = folder.appendingPathComponent("batch-report.csv")
        let text = (0..<60_000).map { "\($0),S-\($0),issued,S-\($0).pkpass\n" }.joined()  // about 2 MB: several 1 MB reads
        try Data(text.utf8).write(to: report)
        let stream = folder.appendingPathComponent("report.tar")
        _ = FileManager.default.createFile(atPath: stream.path, contents: nil)
        let handle = try FileHandle(forWritingTo: stream)
        try PassTarWriter(fileDescriptor: handle.fileDescriptor).finish(reportAt: report.path)
        try handle.close()
        let extracted = try TestEnvironment.run("tar", ["-xOf", stream.path, "batch-report.csv"])
        #expect(extracted.status == 0, "\(extracted.stderr)")
        #expect(extracted.stdout == text)
    }

    @Test func aBatchArchivePastSixtyFiveThousandEntriesIsZip64() throws {
        let path = TestEnvironment.temporaryFolder("zip64").appendingPathComponent("cards.zip").path
        let writer = try PassArchiveWriter(path: path, resume: false)
        let count = 0x1_0000 + 10
        for index in 0..<count { try writer.append(name: "p\(index).pkpass", bytes: [UInt8(index & 0xFF)]) }
        try writer.finish()
        let names = try TestEnvironment.pythonZipNames(path: path)
        #expect(names.count == count)
        #expect(names.last == "p\(count - 1).pkpass")
        let limits = ZipLimits(maximumEntries: count, maximumEntryBytes: 16, maximumTotalBytes: 1 << 20, maximumRatio: .max)
        let entries = try ZipArchive.read(try FileIO.read(path, what: "archive"), source: path, limits: limits)
        #expect(entries.count == count)
        #expect(entries[0x1_0005].bytes == [0x05])
    }
}
