import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// Untrusted `.pkpass` files: `verify` and `lint` run on files from anyone, so no file may cost more than its limits.
@Suite(.computeThreads) struct HostileArchiveTests {
    @Test func theBombIsReal() throws {
        // The bomb itself inflates as built (checked on a small one, read without limits).
        let small = ZipBomb.archive(entry: "pass.json", size: 3 << 20)
        let unlimited = ZipLimits(maximumEntries: 10, maximumEntryBytes: .max, maximumTotalBytes: .max, maximumRatio: .max)
        let entries = try ZipArchive.read(small, source: "small.zip", limits: unlimited)
        #expect(entries.first?.bytes.count ?? 0 >= 3 << 20)
        #expect(entries.first?.bytes.allSatisfy { $0 == 0 } == true)
        #expect(small.count * 100 < entries.first!.bytes.count)
    }

    @Test func zipBombIsRefusedFromItsCentralDirectoryNamingTheEntryAndLimit() throws {
        let bomb = ZipBomb.archive(entry: "signature", size: 80 << 20)
        #expect(bomb.count < 1 << 20)
        let report = PassVerifier().verify(bomb, source: "bomb.pkpass")
        let check = try #require(report.check("zip"))
        #expect(check.status == .failed)
        #expect(check.detail.contains("signature") && check.detail.contains("one entry may hold"), "\(check.detail)")
        #expect(throws: PassmintError.self) { try PassContents.load(pkpass: bomb, source: "bomb.pkpass") }
    }

    @Test func compressionRatioOnlyABombHasIsRefused() throws {
        let bomb = ZipBomb.archive(entry: "pass.json", size: 20 << 20)  // under the size limits, over the ratio
        do {
            _ = try ZipArchive.read(bomb, source: "ratio.pkpass")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("ratio") && error.message.contains("pass.json"), "\(error.message)")
        }
    }

    @Test func anEmptyFileIsNotAZIPArchive() throws {
        let report = PassVerifier().verify([], source: "empty.pkpass")
        #expect(report.check("zip")?.detail.contains("not a ZIP archive") == true, "\(report.checks)")
        do {
            _ = try PassContents.load(pkpass: [], source: "empty.pkpass")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("empty.pkpass is not a ZIP archive"), "\(error.message)")
        }
    }

    @Test func aMemoryBIOIsNeverAskedToHoldMoreThan2GiB() {
        // A BIO's length is a C int: 2 GiB and more used to trap on the conversion.
        let size = Int(Int32.max) + 1
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)  // never touched: no memory used
        defer { buffer.deallocate() }
        let called = OpenSSL.withMemoryBIO(UnsafeRawBufferPointer(buffer)) { _ in true }
        #expect(called == nil)
    }

    @Test func signedDataWhoseContentTypeIsNotDataIsRefused() throws {
        var built = try PassVerifierTests().build()
        let folder = TestEnvironment.temporaryFolder("econtent")
        let manifest = folder.appendingPathComponent("manifest.json")
        try Data(built.files["manifest.json"]!).write(to: manifest)
        let signature = folder.appendingPathComponent("signature")
        let result = try TestEnvironment.run(
            "openssl",
            [
                "cms", "-sign", "-binary", "-outform", "DER", "-econtent_type", "1.2.840.113549.1.9.16.1.4",  // id-ct-TSTInfo
                "-signer", built.chain.appendingPathComponent("signer.pem").path, "-inkey",
                built.chain.appendingPathComponent("signer.key").path,
                "-certfile", built.chain.appendingPathComponent("wwdr.pem").path, "-in", manifest.path, "-out", signature.path,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        built.files["signature"] = [UInt8](try Data(contentsOf: signature))
        let report = try built.verify()
        let check = try #require(report.check("signature-format"))
        #expect(check.status == .failed)
        #expect(check.detail.contains("id-data"), "\(check.detail)")
        #expect(!report.isValid)
    }
}
