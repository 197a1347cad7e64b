import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// `.pkpasses` bundles: a ZIP of signed `.pkpass` files, at most 10 and 150 MB.
@Suite(.computeThreads) struct PassBundleTests {
    static func passes(_ count: Int) throws -> [BuiltPass] {
        let template = try PassTemplate(folder: TestTemplates.write().path)
        let builder = try PassBuilder(identity: TestTemplates.identity())
        return try (1...count).map { index in
            var data = TestTemplates.data
            data["serialNumber"] = .string("S-\(index)")
            return try builder.sign(PassInput(template: template, data: data))
        }
    }

    @Test func bundleHoldsStoredPassesThatEachVerify() throws {
        let built = try Self.passes(3)
        let items = [
            PassBundle.Item(name: "out/ticket.pkpass", archive: built[0].archive),
            PassBundle.Item(name: "ticket", archive: built[1].archive),
            PassBundle.Item(built[2]),
        ]
        let bundle = try PassBundle.make(items)

        let entries = try ZipArchive.read(bundle, source: "tickets.pkpasses")
        #expect(entries.map(\.name) == ["ticket.pkpass", "ticket-2.pkpass", "S-3.pkpass"], "file names kept, made unique")
        #expect(entries.allSatisfy { !$0.compressed }, "passes are stored: they are compressed already")
        let root = try Certificate(contentsOf: TestEnvironment.devChain().appendingPathComponent("root.pem").path)
        for (entry, pass) in zip(entries, built) {
            #expect(entry.bytes == pass.archive)
            let report = PassVerifier(root: root).verify(entry.bytes, source: entry.name)
            #expect(report.isValid, "\(entry.name): \(report.checks.filter { $0.status == .failed }.map(\.detail))")
        }
        #expect(PassBundle.mimeType == "application/vnd.apple.pkpasses")
    }

    @Test func unnamedPassesArePassIndexPkpass() {
        let names = PassBundle.entryNames(for: [
            PassBundle.Item(archive: []), PassBundle.Item(name: "", archive: []), PassBundle.Item(name: ".hidden", archive: []),
        ])
        #expect(names == ["pass0.pkpass", "pass1.pkpass", "pass2.pkpass"])
    }

    @Test func elevenPassesAreRefusedNamingTheLimit() throws {
        let pass = try Self.passes(1)[0]
        let items = Array(repeating: PassBundle.Item(pass), count: 11)
        let error = #expect(throws: PassmintError.self) { try PassBundle.make(items) }
        #expect(error?.code == .invalidData)
        #expect(error?.message.contains("at most 10 passes") == true)
        #expect(error?.message.contains("11 were given") == true)
        #expect(throws: PassmintError.self) { try PassBundle.make([]) }
    }

    @Test func moreThan150MBIsRefusedWithTheSizes() {
        let big = [UInt8](repeating: 0, count: 75_000_001)
        let error = #expect(throws: PassmintError.self) {
            try PassBundle.make([PassBundle.Item(name: "a.pkpass", archive: big), PassBundle.Item(name: "b.pkpass", archive: big)])
        }
        #expect(error?.message.contains("150000002 bytes") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("at most 150.0 MB") == true)
        #expect(error?.message.contains("a.pkpass 75.0 MB") == true)
    }

    @Test func inputThatIsNotAPassIsRefusedNamingIt() throws {
        let pass = try Self.passes(1)[0]
        let notZip = #expect(throws: PassmintError.self) {
            try PassBundle.make([
                PassBundle.Item(pass), PassBundle.Item(name: "notes.txt", archive: Array("hello".utf8), source: "inbox/notes.txt"),
            ])
        }
        #expect(notZip?.code == .invalidPass)
        #expect(notZip?.message.contains("inbox/notes.txt is not a pass") == true, "\(notZip?.message ?? "")")

        let zipWithoutPass = try ZipArchive.make([ZipArchive.Entry(name: "readme.txt", bytes: [65], compressed: false)])
        let noPassJSON = #expect(throws: PassmintError.self) {
            try PassBundle.make([PassBundle.Item(name: "other.zip", archive: zipWithoutPass)])
        }
        #expect(
            noPassJSON?.message.contains("other.zip is not a pass: the archive has no pass.json") == true, "\(noPassJSON?.message ?? "")")
    }
}
