import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// Runs the built `passmint` binary end to end.
@Suite(.offPool) struct CreateCommandTests {
    static var binary: String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("passmint").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return TestEnvironment.repositoryRoot.appendingPathComponent(".build/debug/passmint").path
    }

    static let templates: [String] = {
        let folder = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".pass") }.sorted()
    }()

    func passmint(_ arguments: [String], environment: [String: String] = [:]) throws -> TestEnvironment.ProcessResult {
        try TestEnvironment.run(Self.binary, arguments, environment: environment, in: TestEnvironment.repositoryRoot)
    }

    @Test func helpIsCompleteAndExitsZero() throws {
        let root = try passmint(["--help"])
        #expect(root.status == 0)
        #expect(root.stdout.contains("create"))
        let help = try passmint(["create", "--help"])
        #expect(help.status == 0)
        for option in [
            "--output", "--data", "--set", "--certificates", "--signer-cert", "--signer-key", "--p12", "--wwdr", "--passphrase-env",
            "--passphrase-file", "--allow-expired",
        ] {
            #expect(help.stdout.contains(option), "\(option) missing from --help")
        }
    }

    @Test func wrongWWDRIntermediateIsRefusedBeforeAnythingIsWritten() throws {
        let chain = try TestEnvironment.devChain()
        let output = TestEnvironment.temporaryFolder().appendingPathComponent("x.pkpass")
        let result = try passmint([
            "create", "PassTemplates/Loyalty.pass", "--data", "PassTemplates/Loyalty.json",
            "--signer-cert", chain.appendingPathComponent("signer.pem").path, "--signer-key",
            chain.appendingPathComponent("signer.key").path,
            "--wwdr", "Certificates/apple/AppleWWDRCAG4.pem", "--output", output.path,
        ])
        #expect(result.status != 0)
        #expect(
            result.stderr.contains("Certificates/apple/AppleWWDRCAG4.pem") && result.stderr.contains("did not issue"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func anOutputFolderThatDoesNotExistIsRefusedFirst() throws {
        let output = TestEnvironment.temporaryFolder().appendingPathComponent("missing/x.pkpass")
        // No certificates at all: the output path is what is reported, before anything is loaded or signed.
        let result = try passmint(["create", "PassTemplates/Loyalty.pass", "--certificates", "/nonexistent", "--output", output.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("does not exist") && result.stderr.contains("mkdir -p"), "\(result.stderr)")
    }

    @Test func everyStyleHasATemplate() {
        #expect(Self.templates.count >= 6)
    }

    /// The tests over every template of the folder would test nothing if it were empty (or moved).
    @Test func theTemplatesFolderHoldsTemplates() throws {
        try #require(Self.templates.count >= 10, "PassTemplates/*.pass: \(Self.templates)")
    }

    @Test(arguments: templates)
    func buildsEveryTemplateIntoAPassIndependentToolsAccept(_ template: String) throws {
        let chain = try TestEnvironment.devChain()
        let name = String(template.dropLast(".pass".count))
        let output = TestEnvironment.temporaryFolder().appendingPathComponent("\(name).pkpass")
        let result = try passmint([
            "create", "PassTemplates/\(template)", "--data", "PassTemplates/\(name).json", "--certificates", chain.path, "--output",
            output.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let check = try TestEnvironment.independentlyCheck(output, root: chain.appendingPathComponent("root.pem"))
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func loyaltyTemplateCarriesSharingProhibitedAndNFC() throws {
        let chain = try TestEnvironment.devChain()
        let output = TestEnvironment.temporaryFolder().appendingPathComponent("loyalty.pkpass")
        let result = try passmint([
            "create", "PassTemplates/Loyalty.pass", "--data", "PassTemplates/Loyalty.json", "--set", "serialNumber=L-77",
            "--certificates", chain.path, "--output", output.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let entries = try ZipArchive.read([UInt8](try Data(contentsOf: output)), source: "loyalty.pkpass")
        let json = try JSONParser.value(try #require(entries.first { $0.name == "pass.json" }).bytes)
        #expect(json["sharingProhibited"] == true)
        #expect(json["serialNumber"]?.stringValue == "L-77")
        let key = try #require(json["nfc"]?["encryptionPublicKey"]?.stringValue)
        let der = try #require(Data(base64Encoded: key))
        let file = TestEnvironment.temporaryFolder().appendingPathComponent("nfc.der")
        try der.write(to: file)
        let parsed = try TestEnvironment.run("openssl", ["pkey", "-pubin", "-inform", "DER", "-in", file.path, "-noout", "-text"])
        #expect(parsed.status == 0)
        #expect(parsed.stdout.contains("prime256v1") || parsed.stdout.contains("P-256"))
    }

    @Test func encryptedKeyWithPassphraseFromEnvironment() throws {
        let chain = try TestEnvironment.devChain()
        let output = TestEnvironment.temporaryFolder().appendingPathComponent("enc.pkpass")
        let result = try passmint(
            [
                "create", "PassTemplates/Generic.pass", "--data", "PassTemplates/Generic.json",
                "--signer-cert", chain.appendingPathComponent("signer.pem").path, "--signer-key",
                chain.appendingPathComponent("signer-encrypted.key").path,
                "--wwdr", chain.appendingPathComponent("wwdr.pem").path, "--passphrase-env", "PASSMINT_TEST_SECRET", "--output",
                output.path,
            ], environment: ["PASSMINT_TEST_SECRET": TestEnvironment.devPassphrase])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: output.path))
    }

    @Test func legacyP12WithPassphraseFile() throws {
        let chain = try TestEnvironment.devChain()
        let folder = TestEnvironment.temporaryFolder()
        let secret = folder.appendingPathComponent("secret")
        try Data((TestEnvironment.devPassphrase + "\n").utf8).write(to: secret)
        let output = folder.appendingPathComponent("p12.pkpass")
        let result = try passmint([
            "create", "PassTemplates/Coupon.pass", "--data", "PassTemplates/Coupon.json",
            "--p12", chain.appendingPathComponent("signer-legacy.p12").path, "--passphrase-file", secret.path, "--output", output.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let check = try TestEnvironment.independentlyCheck(output, root: chain.appendingPathComponent("root.pem"))
        #expect(check.status == 0, "\(check.stderr)")
    }

    // MARK: Bad input: non-zero exit, a message naming the file or key, nothing written.

    struct Failure: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: @Sendable (_ chain: URL, _ scratch: URL) throws -> [String]
        var environment: [String: String] = [:]
        var expected: [String]
        var testDescription: String { name }
    }

    static let failures: [Failure] = [
        Failure(
            name: "invalid JSON in pass.json",
            arguments: { chain, scratch in
                let template = try copyTemplate("Generic", to: scratch)
                try Data("{\n  \"formatVersion\": 1,\n  \"serialNumber\": \"{{serialNumber}}\"\n  \"x\": 1\n}".utf8).write(
                    to: template.appendingPathComponent("pass.json"))
                return [template.path, "--certificates", chain.path]
            }, expected: ["pass.json", "line 4, column 3"]),
        Failure(
            name: "missing placeholder value",
            arguments: { chain, _ in
                ["PassTemplates/Generic.pass", "--certificates", chain.path]
            }, expected: ["{{", "has no value", "Generic.pass/pass.json"]),
        Failure(
            name: "wrong key passphrase",
            arguments: { chain, _ in
                [
                    "PassTemplates/Generic.pass", "--data", "PassTemplates/Generic.json", "--signer-cert",
                    chain.appendingPathComponent("signer.pem").path,
                    "--signer-key", chain.appendingPathComponent("signer-encrypted.key").path, "--wwdr",
                    chain.appendingPathComponent("wwdr.pem").path,
                    "--passphrase-env", "PASSMINT_TEST_SECRET",
                ]
            }, environment: ["PASSMINT_TEST_SECRET": "wrong"], expected: ["wrong passphrase", "signer-encrypted.key"]),
        Failure(
            name: "key that does not match the certificate",
            arguments: { chain, _ in
                let other = try TestEnvironment.devChain(uid: "pass.dev.other", team: "OTHERTEAM1")
                return [
                    "PassTemplates/Generic.pass", "--data", "PassTemplates/Generic.json", "--signer-cert",
                    chain.appendingPathComponent("signer.pem").path,
                    "--signer-key", other.appendingPathComponent("signer.key").path, "--wwdr",
                    chain.appendingPathComponent("wwdr.pem").path,
                ]
            }, expected: ["does not belong to the certificate"]),
        Failure(
            name: "certificate UID/OU not matching the pass",
            arguments: { _, scratch in
                let other = try TestEnvironment.devChain(uid: "pass.dev.other", team: "OTHERTEAM1")
                let template = try copyTemplate("Generic", to: scratch)
                try setKeys(["passTypeIdentifier": "pass.dev.passmint.example", "teamIdentifier": "DEVTEAM123"], in: template)
                return [template.path, "--data", "PassTemplates/Generic.json", "--certificates", other.path]
            }, expected: ["pass.dev.passmint.example", "pass.dev.other", "DEVTEAM123", "OTHERTEAM1"]),
        Failure(
            name: "expired certificate",
            arguments: { _, _ in
                let expired = try TestEnvironment.devChain(expired: true)
                return ["PassTemplates/Generic.pass", "--data", "PassTemplates/Generic.json", "--certificates", expired.path]
            }, expected: ["expired", "--allow-expired"]),
        Failure(
            name: "file that is not a PNG",
            arguments: { chain, scratch in
                let template = try copyTemplate("Generic", to: scratch)
                try Data("not an image".utf8).write(to: template.appendingPathComponent("logo@2x.png"))
                return [template.path, "--data", "PassTemplates/Generic.json", "--certificates", chain.path]
            }, expected: ["logo@2x.png", "not a PNG"]),
        Failure(
            name: "no icon",
            arguments: { chain, scratch in
                let template = try copyTemplate("Generic", to: scratch)
                for scale in ["", "@2x", "@3x"] {
                    try FileManager.default.removeItem(at: template.appendingPathComponent("icon\(scale).png"))
                }
                return [template.path, "--data", "PassTemplates/Generic.json", "--certificates", chain.path]
            }, expected: ["icon.png"]),
        Failure(
            name: "missing required key",
            arguments: { chain, scratch in
                let template = try copyTemplate("Generic", to: scratch)
                try removeKey("organizationName", in: template)
                return [template.path, "--data", "PassTemplates/Generic.json", "--certificates", chain.path]
            }, expected: ["organizationName", "missing"]),
        Failure(
            name: "number where a string is needed",
            arguments: { chain, _ in
                [
                    "PassTemplates/Generic.pass", "--data", "PassTemplates/Generic.json", "--set", "serialNumber:=12345", "--certificates",
                    chain.path,
                ]
            }, expected: ["serialNumber must be a string, not number"]),
        Failure(
            name: "no certificates folder",
            arguments: { _, scratch in
                [
                    "PassTemplates/Generic.pass", "--data", "PassTemplates/Generic.json", "--certificates",
                    scratch.appendingPathComponent("nowhere").path,
                ]
            }, expected: ["nowhere", "make-dev-chain.sh"]),
    ]

    static func copyTemplate(_ name: String, to scratch: URL) throws -> URL {
        let target = scratch.appendingPathComponent("\(name).pass")
        try FileManager.default.copyItem(
            at: TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/\(name).pass"), to: target)
        return target
    }

    static func removeKey(_ key: String, in template: URL) throws {
        try setKeys([key: nil], in: template)
    }

    static func setKeys(_ values: [String: JSONValue?], in template: URL) throws {
        let url = template.appendingPathComponent("pass.json")
        var object = try JSONParser.value([UInt8](try Data(contentsOf: url))).objectValue!
        for (key, value) in values { object[key] = value }
        try Data(JSONWriter.data(.object(object))).write(to: url)
    }

    @Test(arguments: failures)
    func badInputFailsClearlyAndWritesNothing(_ failure: Failure) throws {
        let chain = try TestEnvironment.devChain()
        let scratch = TestEnvironment.temporaryFolder()
        let output = scratch.appendingPathComponent("out.pkpass")
        let result = try passmint(
            ["create"] + failure.arguments(chain, scratch) + ["--output", output.path], environment: failure.environment)
        #expect(result.status != 0)
        #expect(!result.stderr.isEmpty)
        for text in failure.expected { #expect(result.stderr.contains(text), "stderr: \(result.stderr)") }
        #expect(!FileManager.default.fileExists(atPath: output.path), "nothing may be written")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func expiredCertificateIsAllowedWithFlagAndWarns() throws {
        let expired = try TestEnvironment.devChain(expired: true)
        let output = TestEnvironment.temporaryFolder().appendingPathComponent("expired.pkpass")
        let result = try passmint([
            "create", "PassTemplates/Generic.pass", "--data", "PassTemplates/Generic.json", "--certificates", expired.path,
            "--allow-expired", "--output", output.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning"))
        #expect(FileManager.default.fileExists(atPath: output.path))
    }
}
