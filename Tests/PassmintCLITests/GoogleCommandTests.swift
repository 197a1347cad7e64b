import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint google link` against the Google stand-in, its link checked by PyJWT; `passmint lint --google`.
@Suite(.offPool) struct GoogleCommandTests {
    static let issuerID = "3388000000022222222"

    func passmint(_ arguments: [String]) throws -> TestEnvironment.ProcessResult {
        try TestEnvironment.run(CreateCommandTests.binary, arguments, in: TestEnvironment.repositoryRoot)
    }

    @Test func linkInsertsThenPatchesAndPrintsALinkPyJWTAccepts() throws {
        let folder = TestEnvironment.temporaryFolder("google-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let account = try TestServiceAccount(folder: folder)
        let standIn = try GoogleWalletStandIn(account: account, issuerID: Self.issuerID)
        defer { standIn.shutdown() }
        let keyFile = try account.writeKeyFile(tokenURI: standIn.tokenURL.absoluteString)
        // The object id names the pass type of the certificate, as `serve` and `batch --google` name it (issue 39).
        let object = "\(Self.issuerID).pass.dev.passmint.example.MLC-4711-0815"
        let arguments = [
            "google", "link", "PassTemplates/Loyalty.pass", "--data", "PassTemplates/Loyalty.json", "--service-account", keyFile.path,
            "--issuer-id", Self.issuerID, "--api-url", standIn.url.absoluteString, "--image-base-url", "https://passes.example.com/images",
            "--origin", "https://passes.example.com", "--certificates", try TestEnvironment.devChain().path,
        ]
        let first = try passmint(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("class \(Self.issuerID).Loyalty: inserted; object \(object): inserted"), "\(first.stderr)")
        #expect(first.stderr.contains("google-not-carried") && first.stderr.contains("nfc"))
        let link = first.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        let checked = try TestEnvironment.run(
            "python3", ["Tests/Google/check_save_link.py", link, account.publicKeyFile.path], in: TestEnvironment.repositoryRoot)
        #expect(checked.status == 0, "\(checked.stderr)")
        let report = try JSONParser.value(Array(checked.stdout.utf8))
        #expect(report["header"]?["alg"] == "RS256")
        #expect(report["claims"]?["typ"] == "savetowallet" && report["claims"]?["iss"] == .string(account.clientEmail))
        #expect(report["claims"]?["payload"]?["loyaltyObjects"] == [["id": .string(object)]])
        #expect(report["claims"]?["origins"] == ["https://passes.example.com"])
        #expect((report["length"]?.numberValue?.intValue ?? .max) <= 1800)

        let again = try passmint(arguments)
        #expect(
            again.stderr.contains("inserted") == false && again.stderr.contains("object \(object): unchanged"))
        let changed = try passmint(arguments + ["--set", "points:=1300"])
        #expect(changed.stderr.contains("object \(object): patched"), "\(changed.stderr)")
        #expect(standIn.stored("loyaltyObject", id: object)?["loyaltyPoints"]?["balance"]?["int"] == 1300)
        let typed = try passmint(arguments + ["--pass-type-id", "pass.com.example.other"])
        #expect(typed.stderr.contains("object \(Self.issuerID).pass.com.example.other.MLC-4711-0815: inserted"), "\(typed.stderr)")
    }

    @Test func aLinkSignedByAnotherKeyFailsPyJWT() throws {
        let folder = TestEnvironment.temporaryFolder("google-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let account = try TestServiceAccount(folder: folder.appendingPathComponent("a", isDirectory: true).creatingFolder())
        let other = try TestServiceAccount(folder: folder.appendingPathComponent("b", isDirectory: true).creatingFolder())
        let standIn = try GoogleWalletStandIn(account: account, issuerID: Self.issuerID)
        defer { standIn.shutdown() }
        let keyFile = try account.writeKeyFile(tokenURI: standIn.tokenURL.absoluteString)
        let result = try passmint([
            "google", "link", "PassTemplates/Generic.pass", "--data", "PassTemplates/Generic.json", "--service-account", keyFile.path,
            "--issuer-id", Self.issuerID, "--api-url", standIn.url.absoluteString, "--pass-type-id", "pass.dev.passmint.example",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let checked = try TestEnvironment.run(
            "python3",
            ["Tests/Google/check_save_link.py", result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), other.publicKeyFile.path],
            in: TestEnvironment.repositoryRoot)
        #expect(checked.status == 1 && checked.stderr.contains("Signature verification failed"), "\(checked.stderr)")
    }

    @Test func aRefusedKeyFileOrIssuerSaysWhatToDo() throws {
        let folder = TestEnvironment.temporaryFolder("google-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let notAKey = folder.appendingPathComponent("key.json")
        try Data(#"{"type": "authorized_user"}"#.utf8).write(to: notAKey)
        let base = ["google", "link", "PassTemplates/Generic.pass", "--data", "PassTemplates/Generic.json", "--service-account"]
        let wrongKey = try passmint(base + [notAKey.path, "--issuer-id", Self.issuerID])
        #expect(wrongKey.status != 0 && wrongKey.stderr.contains("not \"service_account\""), "\(wrongKey.stderr)")
        let wrongIssuer = try passmint(base + [notAKey.path, "--issuer-id", "acme"])
        #expect(wrongIssuer.status != 0 && wrongIssuer.stderr.contains("issuer id \"acme\" is not a number"), "\(wrongIssuer.stderr)")
    }

    @Test func lintGoogleListsWhatWillNotCarryOver() throws {
        let result = try passmint(["lint", "PassTemplates/Loyalty.pass", "--google"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("google-not-carried") && result.stdout.contains("nfc") && result.stdout.contains("foregroundColor"))
        let plain = try passmint(["lint", "PassTemplates/Loyalty.pass"])
        #expect(!plain.stdout.contains("google-not-carried"))
    }
}

extension URL {
    /// Makes this folder and returns it.
    fileprivate func creatingFolder() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}
