import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// Passes on which `verify` must say what Wallet does: installs (valid, perhaps with a warning) or refuses (a failed
/// check that names the entry).
@Suite(.computeThreads) struct VerifierWalletAgreementTests {
    /// The files of a pass Passmint built, changed by `change`, then given a fresh manifest and signature, so that only
    /// the change itself can make the pass fail.
    func resigned(_ change: (inout [String: [UInt8]]) -> Void, manifestExtra: [String] = []) throws -> [String: [UInt8]] {
        var files = try PassVerifierTests().build().files
        change(&files)
        var manifest = JSONObject()
        for (path, bytes) in files where path != "manifest.json" && path != "signature" { manifest[path] = .string(Digest.sha1Hex(bytes)) }
        for path in manifestExtra { manifest[path] = .string(Digest.sha1Hex(files[path] ?? [])) }
        files["manifest.json"] = JSONWriter.data(.object(manifest))
        files["signature"] = try TestTemplates.identity().signDetached(files["manifest.json"]!)
        return files
    }

    func archive(_ files: [String: [UInt8]]) throws -> [UInt8] {
        try ZipArchive.make(files.sorted { $0.key < $1.key }.map { ZipArchive.Entry(name: $0.key, bytes: $0.value, compressed: true) })
    }

    func verify(_ bytes: [UInt8], now: Date = Date()) throws -> VerificationReport {
        let root = try Certificate(contentsOf: TestEnvironment.devChain().appendingPathComponent("root.pem").path)
        return PassVerifier(root: root).verify(bytes, source: "test.pkpass", now: now)
    }

    func failures(_ report: VerificationReport) -> [String] {
        report.checks.filter { $0.status == .failed }.map { "\($0.name): \($0.detail)" }
            + report.lint.filter { $0.severity == .error }.map(\.code)
    }

    // 1. Entries written with data descriptors, as Java and .NET servers write them.
    @Test func archiveWithDataDescriptorsIsRead() throws {
        let plain = try archive(try PassVerifierTests().build().files)
        let streamed = ZipRewriter.withDataDescriptors(plain)
        #expect(streamed != plain)
        let report = try verify(streamed)
        #expect(report.check("zip")?.status == .passed, "\(report.check("zip")?.detail ?? "")")
        #expect(report.isValid, "\(failures(report))")
        // Damage is still found: a flipped byte in an entry's data fails its CRC.
        var damaged = streamed
        let firstData = 30 + Int(streamed[26]) + Int(streamed[27]) << 8 + Int(streamed[28]) + Int(streamed[29]) << 8
        damaged[firstData + 1] ^= 0xFF
        #expect(try verify(damaged).check("zip")?.status == .failed)
    }

    // 2. A stray file the manifest lists with the right hash: Wallet installs the pass.
    @Test func strayFileListedInTheManifestIsAWarning() throws {
        let listed = try resigned { $0[".DS_Store"] = [0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31] }
        let report = try verify(try archive(listed))
        #expect(report.check("entries")?.status == .warning)
        #expect(report.check("entries")?.detail.contains(".DS_Store") == true)
        #expect(report.isValid, "\(failures(report))")

        // Not listed: a failure.
        var unlisted = try PassVerifierTests().build().files
        unlisted[".DS_Store"] = [0, 0, 0, 1]
        let refused = try verify(try archive(unlisted))
        #expect(refused.check("entries")?.status == .failed)
        #expect(!refused.isValid)
    }

    // 3. A signer certificate that had expired when the pass was signed, with no root given.
    @Test func signerExpiredAtTheSigningTimeFailsWithoutARoot() throws {
        let identity = try TestTemplates.identity(expired: true)
        let template = try PassTemplate(folder: TestTemplates.write().path)
        let pass = try PassBuilder(identity: identity, options: .init(allowExpired: true)).sign(
            PassInput(
                template: template, data: TestTemplates.data))
        let report = PassVerifier().verify(pass.archive, source: "expired.pkpass")
        let check = try #require(report.check("signer-validity"))
        #expect(check.status == .failed)
        #expect(check.detail.contains("expired") && check.detail.contains("signing time"), "\(check.detail)")
        #expect(!report.isValid)
        #expect(report.check("chain")?.status == .skipped)
    }

    @Test func signerValidityIsCheckedAgainstNowWithoutASigningTime() throws {
        let certificate = try TestTemplates.identity().certificate
        let before = certificate.notBefore.addingTimeInterval(-86_400)
        let during = certificate.notBefore.addingTimeInterval(60)
        let notYet = PassVerifier.signerValidity(certificate, signingTime: before, now: during)
        #expect(notYet.status == .failed && notYet.detail.contains("not yet valid"))
        let noTime = PassVerifier.signerValidity(certificate, signingTime: nil, now: certificate.notAfter.addingTimeInterval(1))
        #expect(noTime.status == .failed && noTime.detail.contains("no signing time"), "\(noTime.detail)")
        #expect(PassVerifier.signerValidity(certificate, signingTime: during, now: .distantFuture).status == .passed)
    }

    // 4. icon@2x.png without icon.png.
    @Test func iconAtTwoXWithoutIconPNGIsRefused() throws {
        let files = try resigned { $0["icon.png"] = nil }
        #expect(files["icon@2x.png"] != nil)
        let report = try verify(try archive(files))
        let diagnostic = try #require(report.lint.first { $0.code == "icon-missing" })
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.message.contains("icon@2x.png"), "\(diagnostic.message)")
        #expect(!report.isValid)
    }

    // 5. A truncated PNG whose signature and header are intact.
    @Test func truncatedImageIsRefusedNamingTheFile() throws {
        let files = try resigned { files in
            let png = TestPNG.make(width: 76, height: 76)
            files["icon@2x.png"] = Array(png.prefix(png.count - 40))
        }
        let report = try verify(try archive(files))
        let diagnostic = try #require(report.lint.first { $0.code == "image-not-png" })
        #expect(diagnostic.file == "icon@2x.png")
        #expect(diagnostic.message.contains("damaged"), "\(diagnostic.message)")
        #expect(!report.isValid)
    }

    // 6. A manifest that lists the signature.
    @Test func manifestListingTheSignatureIsRefused() throws {
        var files = try resigned { _ in }
        var manifest = try JSONParser.value(files["manifest.json"]!).objectValue!
        manifest["signature"] = .string(Digest.sha1Hex(files["signature"]!))
        files["manifest.json"] = JSONWriter.data(.object(manifest))
        files["signature"] = try TestTemplates.identity().signDetached(files["manifest.json"]!)
        let report = try verify(try archive(files))
        let check = try #require(report.check("manifest"))
        #expect(check.status == .failed)
        #expect(check.detail.contains("signature"), "\(check.detail)")
        #expect(!report.isValid)
    }

    // 7. An entry compressed with bzip2 (here by Python's zipfile, which libzip reads back).
    @Test func bzip2EntryIsRefusedNamingTheEntryAndMethod() throws {
        let folder = TestEnvironment.temporaryFolder("bzip2")
        let plain = folder.appendingPathComponent("plain.pkpass")
        let bzip2 = folder.appendingPathComponent("bzip2.pkpass")
        try Data(try archive(try PassVerifierTests().build().files)).write(to: plain)
        let script = """
            import sys, zipfile
            source = zipfile.ZipFile(sys.argv[1])
            with zipfile.ZipFile(sys.argv[2], "w") as target:
                for info in source.infolist():
                    method = zipfile.ZIP_BZIP2 if info.filename == "icon@3x.png" else zipfile.ZIP_DEFLATED
                    target.writestr(info.filename, source.read(info.filename), compress_type=method)
            """
        let result = try TestEnvironment.run("python3", ["-c", script, plain.path, bzip2.path])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try verify(try FileIO.read(bzip2.path, what: "pass"))
        let check = try #require(report.check("zip"))
        #expect(check.status == .failed)
        #expect(check.detail.contains("icon@3x.png") && check.detail.contains("bzip2"), "\(check.detail)")
    }
}
