import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

@Suite(.computeThreads) struct PassVerifierTests {
    // MARK: Apple's passes

    /// The test over every sample pass would test nothing if the fixtures folder were empty (or moved).
    @Test func theFixturesHoldApplesFiveSamplePasses() throws {
        try #require(TestEnvironment.applePasses.count == 5, "\(TestEnvironment.fixtures.path)/real-passes")
    }

    @Test(arguments: TestEnvironment.applePasses)
    func applesSamplePassesVerifyToAppleRootCA(_ url: URL) throws {
        let root = try #require(AppleCertificates.rootCA)
        let report = PassVerifier(root: root).verify([UInt8](try Data(contentsOf: url)), source: url.lastPathComponent)
        #expect(report.isValid, "\(report.checks.filter { $0.status == .failed }.map { "\($0.name): \($0.detail)" })")
        #expect(report.check("chain")?.status == .passed)
        #expect(report.signature?.encoding == "BER (indefinite lengths)")
        #expect(report.signature?.digestAlgorithm == "SHA1")
        #expect(report.signature?.signerIdentifier.contains("CMS v1") == true)
        #expect(report.signature?.signer?.userID == "pass.com.apple.devpubs.example")
    }

    @Test func appleSampleChainFailsAgainstAnotherRoot() throws {
        let url = try #require(TestEnvironment.applePasses.first)
        let other = try Certificate(contentsOf: TestEnvironment.devChain().appendingPathComponent("root.pem").path)
        let report = PassVerifier(root: other).verify([UInt8](try Data(contentsOf: url)), source: "x")
        #expect(report.check("chain")?.status == .failed)
        #expect(!report.isValid)
    }

    // MARK: Our own passes and tampered copies

    struct Built {
        var files: [String: [UInt8]]
        var chain: URL
        func archive() throws -> [UInt8] {
            try ZipArchive.make(files.map { ZipArchive.Entry(name: $0.key, bytes: $0.value, compressed: true) })
        }
        func verify(_ files: [String: [UInt8]]? = nil) throws -> VerificationReport {
            let root = try Certificate(contentsOf: chain.appendingPathComponent("root.pem").path)
            let bytes = try ZipArchive.make((files ?? self.files).map { ZipArchive.Entry(name: $0.key, bytes: $0.value, compressed: true) })
            return PassVerifier(root: root).verify(bytes, source: "test.pkpass")
        }
    }

    func build() throws -> Built {
        let template = try PassTemplate(folder: TestTemplates.write().path)
        let pass = try PassBuilder(identity: TestTemplates.identity()).sign(PassInput(template: template, data: TestTemplates.data))
        var files: [String: [UInt8]] = [:]
        for entry in try ZipArchive.read(pass.archive, source: "built") { files[entry.name] = entry.bytes }
        return Built(files: files, chain: try TestEnvironment.devChain())
    }

    /// Signs `content` with the openssl CLI and extra options, returning the DER signature.
    func opensslSign(_ content: [UInt8], chain: URL, extra: [String], withIntermediate: Bool = true) throws -> [UInt8] {
        let folder = TestEnvironment.temporaryFolder()
        let input = folder.appendingPathComponent("manifest.json")
        let output = folder.appendingPathComponent("signature")
        try Data(content).write(to: input)
        var arguments = [
            "cms", "-sign", "-binary", "-outform", "DER", "-signer", chain.appendingPathComponent("signer.pem").path,
            "-inkey", chain.appendingPathComponent("signer.key").path, "-in", input.path, "-out", output.path,
        ]
        if withIntermediate { arguments += ["-certfile", chain.appendingPathComponent("wwdr.pem").path] }
        let result = try TestEnvironment.run("openssl", arguments + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return [UInt8](try Data(contentsOf: output))
    }

    func status(_ report: VerificationReport, _ check: String) -> VerificationReport.Status? { report.check(check)?.status }

    @Test func ourPassVerifiesWithEveryCheckPassing() throws {
        let built = try build()
        let report = try built.verify()
        #expect(report.isValid)
        for name in [
            "zip", "entries", "pass-json", "manifest", "manifest-hashes", "signature-format", "signature-detached", "signature-valid",
            "signing-time", "intermediate", "signer-identity", "chain",
        ] {
            #expect(status(report, name) == .passed, "\(name): \(report.check(name)?.detail ?? "missing")")
        }
        #expect(report.signature?.encoding == "DER")
        #expect(report.signature?.digestAlgorithm == "SHA256")
    }

    @Test func passJSONChangedAfterSigning() throws {
        var built = try build()
        built.files["pass.json"]! += Array(" ".utf8)
        let report = try built.verify()
        #expect(status(report, "manifest-hashes") == .failed)
        #expect(report.check("manifest-hashes")?.detail.contains("pass.json") == true)
        #expect(!report.isValid)
    }

    @Test func fileAddedButNotInManifest() throws {
        var built = try build()
        built.files["extra.png"] = TestTemplates.png(width: 10, height: 10)
        let report = try built.verify()
        #expect(status(report, "manifest") == .failed)
        #expect(report.check("manifest")?.detail.contains("extra.png") == true)
    }

    @Test func manifestEntryWithNoFile() throws {
        var built = try build()
        built.files["icon@3x.png"] = nil
        let report = try built.verify()
        #expect(status(report, "manifest") == .failed)
        #expect(report.check("manifest")?.detail.contains("icon@3x.png") == true)
    }

    @Test func flippedByteInSignature() throws {
        var built = try build()
        var signature = built.files["signature"]!
        signature[signature.count - 20] ^= 0x01  // inside the RSA signature value
        built.files["signature"] = signature
        let report = try built.verify()
        #expect(status(report, "signature-valid") == .failed)
        #expect(!report.isValid)
    }

    @Test func signatureMadeByAnotherKey() throws {
        var built = try build()
        // Same UID and team, but a different key and chain: the signature is internally consistent, the chain is not ours.
        let impostor = try TestEnvironment.devChain(uid: "pass.dev.passmint.example", team: "DEVTEAM123", nfc: true)
        built.files["signature"] = try opensslSign(built.files["manifest.json"]!, chain: impostor, extra: [])
        let report = try built.verify()
        #expect(status(report, "chain") == .failed)
        #expect(!report.isValid)
    }

    @Test func signatureWithoutSigningTime() throws {
        var built = try build()
        built.files["signature"] = try opensslSign(built.files["manifest.json"]!, chain: built.chain, extra: ["-noattr"])
        let report = try built.verify()
        #expect(status(report, "signing-time") == .failed)
        #expect(status(report, "signature-valid") == .passed)
        #expect(!report.isValid)
    }

    @Test func signatureWithoutIntermediate() throws {
        var built = try build()
        built.files["signature"] = try opensslSign(built.files["manifest.json"]!, chain: built.chain, extra: [], withIntermediate: false)
        let report = try built.verify()
        #expect(status(report, "intermediate") == .failed)
        #expect(!report.isValid)
    }

    @Test func uidAndOUThatDoNotMatchThePass() throws {
        var built = try build()
        var json = try JSONParser.value(built.files["pass.json"]!).objectValue!
        json["passTypeIdentifier"] = "pass.com.example.other"
        built.files["pass.json"] = JSONWriter.data(.object(json))
        built.files["manifest.json"] = PassBuilder.manifest(
            passJSON: built.files["pass.json"]!,
            files: try built.files.filter { !["pass.json", "manifest.json", "signature"].contains($0.key) }
                .map { try PassFile(path: $0.key, bytes: $0.value) })
        built.files["signature"] = try TestTemplates.identity().signDetached(built.files["manifest.json"]!)
        let report = try built.verify()
        #expect(status(report, "signer-identity") == .failed)
        #expect(report.check("signer-identity")?.detail.contains("pass.com.example.other") == true)
        #expect(status(report, "signature-valid") == .passed)
    }

    @Test func derSHA256WithSubjectKeyIdentifierIsAccepted() throws {
        var built = try build()
        built.files["signature"] = try opensslSign(built.files["manifest.json"]!, chain: built.chain, extra: ["-keyid", "-md", "sha256"])
        let report = try built.verify()
        #expect(report.isValid, "\(report.checks.filter { $0.status == .failed }.map(\.detail))")
        #expect(report.signature?.signerIdentifier.contains("CMS v3") == true)
    }

    @Test func sha1DigestIsAccepted() throws {
        var built = try build()
        built.files["signature"] = try opensslSign(built.files["manifest.json"]!, chain: built.chain, extra: ["-md", "sha1"])
        let report = try built.verify()
        #expect(report.isValid)
        #expect(report.signature?.digestAlgorithm == "SHA1")
    }

    @Test func intermediateOfAnotherGenerationIsReportedNotRejected() throws {
        var built = try build()
        let folder = TestEnvironment.temporaryFolder()
        let other = try TestEnvironment.devChain(uid: "pass.dev.gen", team: "GENTEAM123")
        // Sign with our identity but ship the intermediate of another chain.
        let input = folder.appendingPathComponent("manifest.json")
        try Data(built.files["manifest.json"]!).write(to: input)
        let result = try TestEnvironment.run(
            "openssl",
            [
                "cms", "-sign", "-binary", "-outform", "DER", "-signer", built.chain.appendingPathComponent("signer.pem").path,
                "-inkey", built.chain.appendingPathComponent("signer.key").path, "-certfile", other.appendingPathComponent("wwdr.pem").path,
                "-in", input.path, "-out", folder.appendingPathComponent("sig").path,
            ])
        #expect(result.status == 0)
        built.files["signature"] = [UInt8](try Data(contentsOf: folder.appendingPathComponent("sig")))
        let root = try Certificate(contentsOf: built.chain.appendingPathComponent("root.pem").path)
        let ourWWDR = try Certificate(contentsOf: built.chain.appendingPathComponent("wwdr.pem").path)
        let report = PassVerifier(root: root, knownIntermediates: [ourWWDR]).verify(try built.archive(), source: "x")
        #expect(status(report, "intermediate") == .warning)
        #expect(status(report, "chain") == .warning)
        #expect(report.isValid)
    }

    @Test func passInsideAFolderIsExplained() throws {
        let built = try build()
        var nested: [String: [UInt8]] = [:]
        for (name, bytes) in built.files { nested["Card.pass/" + name] = bytes }
        let report = try built.verify(nested)
        #expect(status(report, "entries") == .failed)
        #expect(report.check("entries")?.detail.contains("zip the folder's contents") == true)
    }

    @Test func strayFilesAreRejected() throws {
        var built = try build()
        built.files["__MACOSX/._icon.png"] = [1]
        let report = try built.verify()
        #expect(status(report, "entries") == .failed)
    }

    @Test func notAZip() {
        let report = PassVerifier().verify(Array("hello".utf8), source: "x.pkpass")
        #expect(status(report, "zip") == .failed)
        #expect(!report.isValid)
    }

    @Test func derScannerTellsDERFromBER() {
        #expect(DERScanner.encoding(of: [0x30, 0x03, 0x02, 0x01, 0x05]) == .der)
        #expect(DERScanner.encoding(of: [0x30, 0x80, 0x02, 0x01, 0x05, 0x00, 0x00]) == .berIndefinite)
        #expect(DERScanner.encoding(of: [0x30, 0x05, 0x02]) == .malformed)
    }

    @Test func jsonReportListsEveryCheck() throws {
        let report = try build().verify()
        let json = report.json
        #expect(json["valid"] == true)
        #expect(json["checks"]?.arrayValue?.count == report.checks.count)
        #expect(json["signature"]?["digest"]?.stringValue == "SHA256")
    }
}
