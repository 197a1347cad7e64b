import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint lint`, `verify` and `certs`, run as a user would.
@Suite(.offPool) struct InspectionCommandTests {
    func passmint(_ arguments: [String], environment: [String: String] = [:]) throws -> TestEnvironment.ProcessResult {
        try TestEnvironment.run(CreateCommandTests.binary, arguments, environment: environment, in: TestEnvironment.repositoryRoot)
    }

    func buildLoyalty() throws -> URL {
        let output = TestEnvironment.temporaryFolder().appendingPathComponent("loyalty.pkpass")
        let result = try passmint([
            "create", "PassTemplates/Loyalty.pass", "--data", "PassTemplates/Loyalty.json", "--certificates",
            TestEnvironment.devChain().path, "--output", output.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        return output
    }

    @Test(arguments: CreateCommandTests.templates)
    func everyTemplateLintsWithoutErrors(_ template: String) throws {
        let result = try passmint(["lint", "PassTemplates/\(template)"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("0 error(s)"))
    }

    @Test func lintJSONOutputAndExitCodeOnErrors() throws {
        let scratch = TestEnvironment.temporaryFolder()
        let template = try CreateCommandTests.copyTemplate("Generic", to: scratch)
        try CreateCommandTests.setKeys(["backgroundColor": "#123456"], in: template)
        let result = try passmint(["lint", template.path, "--json"])
        #expect(result.status == 1)
        let json = try JSONParser.value(Array(result.stdout.utf8))
        #expect(json["errors"] == 1)
        let diagnostic = try #require(json["diagnostics"]?.arrayValue?.first)
        #expect(diagnostic["code"]?.stringValue == "color-format")
        #expect(diagnostic["path"]?.stringValue == "backgroundColor")
        #expect(diagnostic["severity"]?.stringValue == "error")
        #expect(diagnostic["fix"]?.stringValue?.isEmpty == false)
    }

    @Test func lintReadsAPkpassAndAPassJSON() throws {
        let pass = try buildLoyalty()
        let onPass = try passmint(["lint", pass.path])
        #expect(onPass.status == 0)
        #expect(onPass.stdout.contains("nfc-certificate"))
        let folder = TestEnvironment.temporaryFolder()
        let passJSON = folder.appendingPathComponent("pass.json")
        try Data(#"{"formatVersion": 1, "generic": {}}"#.utf8).write(to: passJSON)
        let onJSON = try passmint(["lint", passJSON.path])
        #expect(onJSON.status == 1)
        #expect(onJSON.stdout.contains("required-key-missing"))
    }

    @Test func createRefusesToSignOnLintErrors() throws {
        let scratch = TestEnvironment.temporaryFolder()
        let template = try CreateCommandTests.copyTemplate("Coupon", to: scratch)
        try CreateCommandTests.setKeys(
            ["webServiceURL": "http://example.com/passes", "authenticationToken": "0123456789abcdef0123"], in: template)
        let output = scratch.appendingPathComponent("out.pkpass")
        let result = try passmint([
            "create", template.path, "--data", "PassTemplates/Coupon.json", "--certificates", TestEnvironment.devChain().path, "--output",
            output.path,
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("web-service-url-insecure"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func verifyAcceptsOurPassAndRejectsATamperedCopy() throws {
        let pass = try buildLoyalty()
        let root = try TestEnvironment.devChain().appendingPathComponent("root.pem").path
        let good = try passmint(["verify", pass.path, "--ca", root])
        #expect(good.status == 0, "\(good.stdout)")
        #expect(good.stdout.contains("ok   chain"))

        var entries = try ZipArchive.read([UInt8](try Data(contentsOf: pass)), source: "x")
        let index = try #require(entries.firstIndex { $0.name == "pass.json" })
        entries[index].bytes = Array(
            String(decoding: entries[index].bytes, as: UTF8.self).replacingOccurrences(of: "Mint Leaf", with: "Fake Leaf").utf8)
        let tampered = TestEnvironment.temporaryFolder().appendingPathComponent("tampered.pkpass")
        try Data(try ZipArchive.make(entries)).write(to: tampered)
        let bad = try passmint(["verify", tampered.path, "--ca", root, "--json"])
        #expect(bad.status == 1)
        let json = try JSONParser.value(Array(bad.stdout.utf8))
        #expect(json["valid"] == false)
        let failed = json["checks"]?.arrayValue?.filter { $0["status"]?.stringValue == "failed" }.compactMap { $0["name"]?.stringValue }
        #expect(failed == ["manifest-hashes"])
    }

    @Test func verifyApplesSamplesAgainstTheShippedAppleRoot() throws {
        try #require(TestEnvironment.applePasses.count == 5, "Apple's sample passes in Tests/Fixtures/real-passes")
        for url in TestEnvironment.applePasses {
            let result = try passmint(["verify", url.path, "--ca", "Certificates/apple/AppleRootCA.pem"])
            #expect(result.status == 0, "\(url.lastPathComponent): \(result.stdout)")
        }
    }

    @Test func certsCheckReportsIdentityAndWrongWWDR() throws {
        let chain = try TestEnvironment.devChain()
        let good = try passmint(["certs", "check", "--certificates", chain.path, "--pass-type-id", "pass.dev.passmint.example", "--json"])
        #expect(good.status == 0, "\(good.stdout)")
        let json = try JSONParser.value(Array(good.stdout.utf8))
        #expect(json["passTypeIdentifier"]?.stringValue == "pass.dev.passmint.example")
        #expect(json["teamIdentifier"]?.stringValue == "DEVTEAM123")
        #expect(json["nfcEnabled"] == false)
        let checks = json["checks"]?.arrayValue ?? []
        #expect(checks.first { $0["name"]?.stringValue == "key-match" }?["status"]?.stringValue == "passed")

        let wrong = try passmint(["certs", "check", "--certificates", chain.path, "--wwdr", "Certificates/apple/AppleWWDRCAG4.pem"])
        #expect(wrong.status == 1)
        #expect(wrong.stdout.contains("FAIL wwdr"))

        let mismatch = try passmint(["certs", "check", "--certificates", chain.path, "--pass-type-id", "pass.com.example.x"])
        #expect(mismatch.status == 1)
    }

    @Test func certsCheckReportsEveryIdentityOfAFolderOfPassTypes() throws {
        let types = ["pass.dev.passmint.cards", "pass.dev.passmint.tickets"]
        let source = try TestEnvironment.passTypeFolders(uids: types)
        let folder = TestEnvironment.temporaryFolder("two-types").appendingPathComponent("Certificates")
        try FileManager.default.copyItem(at: source, to: folder)
        let good = try passmint(["certs", "check", "--certificates", folder.path, "--json"])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        let json = try JSONParser.value(Array(good.stdout.utf8))
        #expect(json["usable"] == true)
        #expect(json["identities"]?.arrayValue?.compactMap { $0["passTypeIdentifier"]?.stringValue }.sorted() == types)
        let text = try passmint(["certs", "check", "--certificates", folder.path])
        #expect(
            text.stdout.contains("== pass.dev.passmint.cards") && text.stdout.contains("== pass.dev.passmint.tickets"), "\(text.stdout)")

        // One identity's key replaced by another's: that identity fails, the other still passes, exit status 1.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("pass.dev.passmint.tickets/signer.key"))
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent("pass.dev.passmint.cards/signer.key"),
            to: folder.appendingPathComponent("pass.dev.passmint.tickets/signer.key"))
        let broken = try passmint(["certs", "check", "--certificates", folder.path, "--json"])
        #expect(broken.status == 1)
        let report = try JSONParser.value(Array(broken.stdout.utf8))
        #expect(report["usable"] == false)
        func keyMatch(_ type: String) -> String? {
            let identity = report["identities"]?.arrayValue?.first { $0["passTypeIdentifier"]?.stringValue == type }
            return identity?["checks"]?.arrayValue?.first { $0["name"]?.stringValue == "key-match" }?["status"]?.stringValue
        }
        #expect(keyMatch("pass.dev.passmint.cards") == "passed")
        #expect(keyMatch("pass.dev.passmint.tickets") == "failed")

        // A template without a type, signed from a folder of several: the error says to choose one.
        let output = TestEnvironment.temporaryFolder().appendingPathComponent("loyalty.pkpass")
        let untyped = try passmint([
            "create", "PassTemplates/Loyalty.pass", "--data", "PassTemplates/Loyalty.json", "--certificates", source.path, "--output",
            output.path,
        ])
        #expect(untyped.status != 0)
        #expect(
            untyped.stderr.contains("has no passTypeIdentifier") && untyped.stderr.contains("set passTypeIdentifier"), "\(untyped.stderr)")
        // A template whose type has no identity in the folder: the error names the type and the folder searched.
        let template = TestEnvironment.temporaryFolder("lounge").appendingPathComponent("Lounge.pass")
        try FileManager.default.copyItem(
            at: TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.pass"), to: template)
        let passJSON = template.appendingPathComponent("pass.json")
        var lounge = try JSONParser.value(try FileIO.read(passJSON.path, what: "")).objectValue!
        lounge["passTypeIdentifier"] = "pass.dev.passmint.lounge"
        try Data(JSONWriter.data(.object(lounge))).write(to: passJSON)
        let create = try passmint([
            "create", template.path, "--data", "PassTemplates/Loyalty.json", "--certificates", source.path, "--output", output.path,
        ])
        #expect(create.status != 0)
        #expect(
            create.stderr.contains("no signing identity for pass type \"pass.dev.passmint.lounge\"")
                && create.stderr.contains(source.path + "/pass.dev.passmint.lounge/"), "\(create.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func certsCheckTriesAnAPNsKey() throws {
        let chain = try TestEnvironment.devChain()
        let folder = TestEnvironment.temporaryFolder("apns-key")
        let key = folder.appendingPathComponent("AuthKey_ZXCV123456.p8")
        #expect(
            try TestEnvironment.run("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key.path])
                .status == 0)
        let good = try passmint(["certs", "check", "--certificates", chain.path, "--apns-key", key.path])
        #expect(good.status == 0, "\(good.stdout)")
        #expect(
            good.stdout.contains("ok   apns-key:") && good.stdout.contains("ZXCV123456") && good.stdout.contains("DEVTEAM123"),
            "\(good.stdout)")

        // The pass certificate's RSA key is no APNs auth key.
        let rsa = try passmint([
            "certs", "check", "--certificates", chain.path, "--apns-key", chain.appendingPathComponent("signer.key").path,
            "--apns-key-id", "ABC123DEFG",
        ])
        #expect(rsa.status == 1)
        #expect(rsa.stdout.contains("FAIL apns-key") && rsa.stdout.contains("not a P-256 EC key"), "\(rsa.stdout)")
    }

    @Test func certsCheckSeesNFCExpiryAndLegacyP12() throws {
        let nfc = try TestEnvironment.devChain(nfc: true)
        let result = try passmint(
            ["certs", "check", "--p12", nfc.appendingPathComponent("signer-legacy.p12").path, "--passphrase-env", "P12PASS", "--json"],
            environment: ["P12PASS": TestEnvironment.devPassphrase])
        let json = try JSONParser.value(Array(result.stdout.utf8))
        #expect(json["nfcEnabled"] == true)
        let cipher = json["checks"]?.arrayValue?.first { $0["name"]?.stringValue == "p12-cipher" }
        #expect(cipher?["status"]?.stringValue == "warning")
        #expect(cipher?["detail"]?.stringValue?.contains("RC2") == true)

        let modern = try passmint(
            ["certs", "check", "--p12", nfc.appendingPathComponent("signer.p12").path, "--passphrase-env", "P12PASS", "--json"],
            environment: ["P12PASS": TestEnvironment.devPassphrase])
        let modernCipher = try JSONParser.value(Array(modern.stdout.utf8))["checks"]?.arrayValue?.first {
            $0["name"]?.stringValue == "p12-cipher"
        }
        #expect(modernCipher?["status"]?.stringValue == "passed")

        let expired = try passmint(["certs", "check", "--certificates", TestEnvironment.devChain(expired: true).path])
        #expect(expired.status == 1)
        #expect(expired.stdout.contains("FAIL validity"))
    }

    @Test func certsImportWritesPEMFilesWithAPrivateKeyMode() throws {
        let chain = try TestEnvironment.devChain()
        let target = TestEnvironment.temporaryFolder().appendingPathComponent("certs")
        let result = try passmint(
            [
                "certs", "import", "--p12", chain.appendingPathComponent("signer-legacy.p12").path, "--passphrase-env", "P12PASS",
                "--certificates", target.path,
            ],
            environment: ["P12PASS": TestEnvironment.devPassphrase])
        #expect(result.status == 0, "\(result.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: target.appendingPathComponent("signer.key").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // The imported folder signs a pass.
        let output = target.appendingPathComponent("p.pkpass")
        let create = try passmint([
            "create", "PassTemplates/Generic.pass", "--data", "PassTemplates/Generic.json", "--certificates", target.path, "--output",
            output.path,
        ])
        #expect(create.status == 0, "\(create.stderr)")
        // A second import does not overwrite without --force.
        let again = try passmint(
            [
                "certs", "import", "--p12", chain.appendingPathComponent("signer.p12").path, "--passphrase-env", "P12PASS",
                "--certificates", target.path,
            ],
            environment: ["P12PASS": TestEnvironment.devPassphrase])
        #expect(again.status != 0)
        #expect(again.stderr.contains("--force"))
    }
}
