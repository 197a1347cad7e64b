import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// Every kind of archive Passmint writes — a pass, a `.pkpasses` bundle (``ZipArchive/make(_:)``) and a batch's
/// `--out-archive` (in PassmintBatchTests) — comes from one set of record encoders (``ZipRecords``) and is read back
/// by libzip and by Python's zipfile.
@Suite(.computeThreads) struct ZipWriterTests {
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
        #expect(try TestEnvironment.pythonZipNames(archive) == entries.map(\.name))
    }

    @Test func aPassAndABundleOfPassesReadBackWithLibzipAndPython() throws {
        let template = try PassTemplate(folder: TestTemplates.write().path)
        let builder = PassBuilder(identity: try TestTemplates.identity())
        let passes = try (1...3).map { index in
            var data = TestTemplates.data
            data["serialNumber"] = .string("S-\(index)")
            return try builder.sign(PassInput(template: template, data: data))
        }
        let names = try ZipArchive.read(passes[0].archive, source: "pass").map(\.name)
        #expect(try TestEnvironment.pythonZipNames(passes[0].archive) == names)
        let bundle = try PassBundle.make(passes.map { PassBundle.Item($0) })
        let entries = try ZipArchive.read(bundle, source: "bundle", limits: .bundle)
        #expect(entries.map(\.bytes) == passes.map(\.archive))
        #expect(try TestEnvironment.pythonZipNames(bundle) == entries.map(\.name))
    }
}
