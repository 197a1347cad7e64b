import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// `verify` and `lint` of an `.order` judge every entry of the archive by the same rules (``PackageEntries``): a
/// folder Wallet does not read, a name that leaves the package folder, a symbolic link.
@Suite(.computeThreads) struct OrderArchiveEntryTests {
    /// A hostile entry: how it is put into a good order's archive.
    struct Hostile: Sendable, CustomStringConvertible {
        var description: String
        var shown: String
        var make: @Sendable ([ZipArchive.Entry]) throws -> [UInt8]
    }

    static let png = TestTemplates.png(width: 120, height: 120)

    static func adding(_ name: String) -> @Sendable ([ZipArchive.Entry]) throws -> [UInt8] {
        { entries in try ZipArchive.make(entries + [.init(name: name, bytes: png, compressed: false)]) }
    }

    static let hostile: [Hostile] = [
        Hostile(description: "a .. or . step", shown: "../evil.png", make: adding("../evil.png")),
        Hostile(description: "an absolute name", shown: "/evil.png", make: adding("/evil.png")),
        Hostile(description: "a backslash", shown: "..\\evil.png", make: adding("..\\evil.png")),
        Hostile(
            description: "a symbolic link", shown: "evil.png",
            make: { entries in
                ZipRewriter.markingSymbolicLink(
                    "evil.png",
                    in: try ZipArchive.make(entries + [.init(name: "evil.png", bytes: Array("/etc/passwd".utf8), compressed: false)]))
            }),
    ]

    static func goodEntries() throws -> [ZipArchive.Entry] {
        try ZipArchive.read(try OrderVerifierTests.built().archive, source: "good.order")
    }

    @Test func aGoodOrderHasNoEntryFinding() throws {
        let entries = try Self.goodEntries()
        #expect(OrderLinter.lint(archive: entries).filter { $0.code == "order-entry" || $0.severity == .error }.isEmpty)
        #expect(entries.allSatisfy { PackageEntries.problem($0) == nil && !$0.isSymbolicLink })
    }

    @Test(arguments: hostile) func lintAndVerifyRefuseAnUnsafeEntry(_ test: Hostile) throws {
        let archive = try test.make(try Self.goodEntries())
        let entries = try ZipArchive.read(archive, source: "hostile.order")
        let found = OrderLinter.lint(archive: entries).filter { $0.code == "order-entry" }
        #expect(found.count == 1 && found[0].severity == .error, "\(found)")
        #expect(
            found.first?.message.contains("\"\(test.shown)\"") == true && found.first?.message.contains(test.description) == true,
            "\(found)")
        let report = try OrderVerifierTests.verifier().verify(archive, source: "hostile.order")
        #expect(!report.isValid)
        let check = try #require(report.check("entries"))
        #expect(check.status == .failed && check.detail.contains(test.shown) && check.detail.contains(test.description), "\(check.detail)")
    }

    @Test func aStrayFolderEntryFailsVerifyAndLint() throws {
        for name in ["images/", "__MACOSX/", "en.lproj/sub/"] {
            let archive = try ZipArchive.make(try Self.goodEntries() + [.init(name: name, bytes: [], compressed: false)])
            let report = try OrderVerifierTests.verifier().verify(archive, source: "stray.order")
            #expect(!report.isValid, "\(name)")
            #expect(report.check("entries")?.status == .failed && report.check("entries")?.detail.contains(name) == true, "\(name)")
            #expect(report.check("signature-valid")?.status == .passed, "only the entry is wrong")
            let found = OrderLinter.lint(archive: try ZipArchive.read(archive, source: "stray.order")).filter { $0.code == "order-entry" }
            #expect(found.count == 1 && found[0].message.contains(name), "\(found)")
        }
        let localized = try ZipArchive.make(try Self.goodEntries() + [.init(name: "de.lproj/", bytes: [], compressed: false)])
        #expect(try OrderVerifierTests.verifier().verify(localized, source: "lproj.order").isValid, "a .lproj folder entry is Wallet's")
    }

    @Test func aNULInANameIsRefusedWhenTheArchiveIsRead() throws {
        let archive = ZipRewriter.renaming(
            "item@3x.png", to: "item@3x\u{0}png", in: try ZipArchive.make(try Self.goodEntries()))
        do {
            _ = try ZipArchive.read(archive, source: "nul.order")
            Issue.record("an entry name with a NUL byte was read")
        } catch {
            #expect(error.message.contains("item@3x\\0png"), "\(error.message)")
        }
        #expect(try OrderVerifierTests.verifier().verify(archive, source: "nul.order").check("zip")?.status == .failed)
    }

    @Test func aPassWithAnUnsafeEntryFailsVerifyWhateverItsManifestSays() throws {
        var built = try PassVerifierTests().build()
        built.files["/evil.png"] = Self.png
        let report = try built.verify()
        #expect(report.check("entries")?.status == .failed && report.check("entries")?.detail.contains("an absolute name") == true)
    }
}
