import Foundation
import PassmintTestSupport
import Testing

@testable import Passmint
@testable import PassmintBatch

/// Every kind of archive Passmint writes — a pass, a `.pkpasses` bundle (``ZipArchive/make(_:)``) and a batch's
/// `--out-archive` — comes from one set of record encoders (``ZipRecords``) and is read back by libzip and by Python's
/// zipfile, ZIP64 included.
@Suite struct ZipWriterTests {
    /// Python's zipfile on `bytes`: the names, after `testzip()` found every CRC right.
    func pythonNames(_ bytes: [UInt8]? = nil, path: String? = nil) throws -> [String] {
        let file =
            try path
            ?? {
                let url = TestEnvironment.temporaryFolder("zip").appendingPathComponent("archive.zip")
                try Data(bytes ?? []).write(to: url)
                return url.path
            }()
        let script = "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint('\\n'.join(z.namelist()))"
        let result = try TestEnvironment.run("python3", ["-c", script, file])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func madeArchivesReadBackWithLibzipAndPython() throws {
        let random = OpenSSL.randomBytes(4096)
        let text = Array(String(repeating: "{\"key\": \"value\"}\n", count: 100).utf8)
        let entries = [
            ZipArchive.Entry(name: "noise.bin", bytes: random, compressed: true),
            ZipArchive.Entry(name: "text.json", bytes: text, compressed: true),
            ZipArchive.Entry(name: "stored.json", bytes: text, compressed: false),
            ZipArchive.Entry(name: "empty", bytes: [], compressed: true),
            ZipArchive.Entry(name: "Zoë.txt", bytes: Array("ü".utf8), compressed: false),
        ]
        let archive = try ZipArchive.make(entries)
        let read = try ZipArchive.read(archive, source: "made.zip")
        #expect(read.map(\.name) == entries.map(\.name))
        #expect(read.map(\.bytes) == entries.map(\.bytes))
        #expect(read.map(\.compressed) == [false, true, false, false, false], "deflated only where that makes it smaller")
        #expect(try pythonNames(archive) == entries.map(\.name))
    }

    @Test func aPassAndABundleOfPassesReadBackWithLibzipAndPython() throws {
        let template = try PassTemplate(folder: TestTemplates.write().path)
        let builder = PassBuilder(identity: try TestTemplates.identity())
        let passes = try (1...3).map { index in
            var data = TestTemplates.data
            data["serialNumber"] = .string("S-\(index)")
            return try builder.build(template: template, data: data)
        }
        let names = try ZipArchive.read(passes[0].archive, source: "pass").map(\.name)
        #expect(try pythonNames(passes[0].archive) == names)
        let bundle = try PassBundle.make(passes.map { PassBundle.Item($0) })
        let entries = try ZipArchive.read(bundle, source: "bundle", limits: .bundle)
        #expect(entries.map(\.bytes) == passes.map(\.archive))
        #expect(try pythonNames(bundle) == entries.map(\.name))
    }

    @Test func aBatchArchivePastSixtyFiveThousandEntriesIsZip64() throws {
        let path = TestEnvironment.temporaryFolder("zip64").appendingPathComponent("cards.zip").path
        let writer = try PassArchiveWriter(path: path, resume: false)
        let count = 0x1_0000 + 10
        for index in 0..<count { try writer.append(name: "p\(index).pkpass", bytes: [UInt8(index & 0xFF)]) }
        try writer.finish()
        let names = try pythonNames(path: path)
        #expect(names.count == count)
        #expect(names.last == "p\(count - 1).pkpass")
        let limits = ZipLimits(maximumEntries: count, maximumEntryBytes: 16, maximumTotalBytes: 1 << 20, maximumRatio: .max)
        let entries = try ZipArchive.read(try FileIO.read(path, what: "archive"), source: path, limits: limits)
        #expect(entries.count == count)
        #expect(entries[0x1_0005].bytes == [0x05])
    }
}
