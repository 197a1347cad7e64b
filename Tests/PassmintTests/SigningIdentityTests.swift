import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

@Suite(.computeThreads) struct SigningIdentityTests {
    let chain: URL
    init() throws { chain = try TestEnvironment.devChain() }
    func path(_ name: String) -> String { chain.appendingPathComponent(name).path }

    @Test func readsSubjectFields() throws {
        let certificate = try Certificate(contentsOf: path("signer.pem"))
        #expect(certificate.userID == "pass.dev.passmint.example")
        #expect(certificate.organizationalUnit == "DEVTEAM123")
        #expect(certificate.commonName == "Pass Type ID: pass.dev.passmint.example")
        #expect(certificate.issuerOrganizationalUnit == "G4")
        #expect(certificate.notAfter > Date())
        #expect(certificate.notBefore < Date())
    }

    @Test func readsAppleCertificatesWithKnownFingerprint() throws {
        let g4 = try Certificate(
            contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent("Certificates/apple/AppleWWDRCAG4.pem").path)
        #expect(g4.sha256Fingerprint == "EA:47:57:88:55:38:DD:8C:B5:9F:F4:55:6F:67:60:87:D8:3C:85:E7:09:02:C1:22:E4:2C:08:08:B5:BC:E1:4C")
        #expect(g4.organizationalUnit == "G4")
    }

    @Test func signatureVerifiesWithOpenSSLAndCarriesSigningTimeAndIntermediate() throws {
        let identity = try TestTemplates.identity()
        let content = Array(#"{"pass.json":"0000"}"#.utf8)
        let signature = try identity.signDetached(content)
        let folder = TestEnvironment.temporaryFolder()
        try Data(content).write(to: folder.appendingPathComponent("manifest.json"))
        try Data(signature).write(to: folder.appendingPathComponent("signature"))
        let verify = try TestEnvironment.run(
            "openssl",
            [
                "smime", "-verify", "-binary", "-inform", "DER", "-content", folder.appendingPathComponent("manifest.json").path,
                "-in", folder.appendingPathComponent("signature").path, "-CAfile", path("root.pem"), "-purpose", "any", "-out", "/dev/null",
            ])
        #expect(verify.status == 0, "\(verify.stderr)")
        let printed = try TestEnvironment.run(
            "openssl", ["cms", "-cmsout", "-print", "-inform", "DER", "-in", folder.appendingPathComponent("signature").path])
        #expect(printed.stdout.contains("signingTime"))
        #expect(printed.stdout.contains("sha256"))
        #expect(printed.stdout.contains("eContent: <ABSENT>"), "the signature must be detached")
        let certs = try TestEnvironment.run(
            "openssl", ["pkcs7", "-inform", "DER", "-in", folder.appendingPathComponent("signature").path, "-print_certs", "-noout"])
        #expect(certs.stdout.contains("OU = G4"), "the WWDR intermediate must be in the signature")
        #expect(certs.stdout.contains("UID = pass.dev.passmint.example"))

        // A changed manifest no longer verifies.
        try Data(content + [0x20]).write(to: folder.appendingPathComponent("manifest.json"))
        let tampered = try TestEnvironment.run(
            "openssl",
            [
                "smime", "-verify", "-binary", "-inform", "DER", "-content", folder.appendingPathComponent("manifest.json").path,
                "-in", folder.appendingPathComponent("signature").path, "-CAfile", path("root.pem"), "-purpose", "any", "-out", "/dev/null",
            ])
        #expect(tampered.status != 0)
    }

    @Test func encryptedKeyOpensWithPassphrase() throws {
        let identity = try SigningIdentity(
            certificatePath: path("signer.pem"), keyPath: path("signer-encrypted.key"), passphrase: TestEnvironment.devPassphrase,
            wwdrPath: path("wwdr.pem"))
        #expect(identity.privateKey.bits == 2048)
    }

    @Test func wrongPassphraseIsAClearError() {
        do {
            _ = try PrivateKey(contentsOf: path("signer-encrypted.key"), passphrase: "not-it")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidIdentity)
            #expect(error.message.contains("wrong passphrase"))
            #expect(error.message.contains("signer-encrypted.key"))
        }
    }

    @Test func encryptedKeyWithoutPassphraseSaysHowToGiveIt() {
        #expect {
            try PrivateKey(contentsOf: path("signer-encrypted.key"), passphrase: nil)
        } throws: { error in
            (error as? PassmintError)?.message.contains("--passphrase-env") == true
        }
    }

    @Test(arguments: ["signer.p12", "signer-legacy.p12"])
    func opensPKCS12IncludingLegacyCiphers(_ file: String) throws {
        let identity = try SigningIdentity(p12Path: path(file), password: TestEnvironment.devPassphrase, wwdrPath: nil)
        #expect(identity.certificate.userID == "pass.dev.passmint.example")
        #expect(identity.intermediates.first?.organizationalUnit == "G4")
    }

    @Test func wrongP12PasswordIsAClearError() {
        do {
            _ = try SigningIdentity(p12Path: path("signer-legacy.p12"), password: "nope", wwdrPath: nil)
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("wrong password"))
        }
    }

    @Test func p12WithoutAPasswordSaysHowToGiveOne() {
        do {
            _ = try SigningIdentity(p12Path: path("signer.p12"), password: nil, wwdrPath: nil)
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("needs a password"), "\(error.message)")
            #expect(error.message.contains("--passphrase-env") && error.message.contains("--passphrase-file"), "\(error.message)")
        }
    }

    @Test func keyOfAnotherCertificateIsRefused() throws {
        let other = try TestEnvironment.devChain(uid: "pass.dev.other", team: "OTHERTEAM1")
        do {
            _ = try SigningIdentity(
                certificatePath: path("signer.pem"), keyPath: other.appendingPathComponent("signer.key").path, passphrase: nil,
                wwdrPath: path("wwdr.pem"))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidIdentity)
            #expect(error.message.contains("does not belong to the certificate"))
        }
    }

    @Test func uidAndOUMismatchShowsBothValues() throws {
        let identity = try TestTemplates.identity()
        do {
            try identity.checkCanSign(passTypeIdentifier: "pass.com.example.other", teamIdentifier: "ABCDE12345")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .identityMismatch)
            for text in ["pass.com.example.other", "pass.dev.passmint.example", "ABCDE12345", "DEVTEAM123"] {
                #expect(error.message.contains(text))
            }
        }
    }

    @Test func expiredCertificateIsRefusedUnlessAllowed() throws {
        let identity = try TestTemplates.identity(expired: true)
        #expect(throws: PassmintError.self) {
            try identity.checkCanSign(passTypeIdentifier: "pass.dev.passmint.example", teamIdentifier: "DEVTEAM123")
        }
        try identity.checkCanSign(passTypeIdentifier: "pass.dev.passmint.example", teamIdentifier: "DEVTEAM123", allowExpired: true)
    }

    // MARK: The WWDR intermediate

    /// The Pass Type ID certificate Apple signed its sample boarding pass with (issued by WWDR G1).
    func appleSampleSigner() throws -> Certificate {
        let url = try #require(TestEnvironment.applePasses.first)
        let entries = try ZipArchive.read(try FileIO.read(url.path, what: "pass"), source: url.lastPathComponent)
        let signature = try #require(entries.first { $0.name == "signature" }).bytes
        let manifest = try #require(entries.first { $0.name == "manifest.json" }).bytes
        return try #require(PassSignature.inspect(signature, content: manifest)?.signer)
    }

    @Test func wrongAppleGenerationIsRefusedNamingTheRightFile() throws {
        let signer = try appleSampleSigner()
        let g4 = try #require(AppleCertificates.wwdrIntermediates.first { $0.file == "AppleWWDRCAG4.pem" }).certificate
        do {
            _ = try IntermediateChoice.choose(for: signer, given: [g4], source: "Certificates/apple/AppleWWDRCAG4.pem")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidIdentity)
            #expect(error.message.contains("AppleWWDRCAG4.pem"), "\(error.message)")
            #expect(error.message.contains("Certificates/apple/AppleWWDRCA-G1-"), "\(error.message)")
        }
    }

    @Test func withoutAnIntermediatePassmintsCopyOfTheIssuerIsTaken() throws {
        let signer = try appleSampleSigner()
        let choice = try IntermediateChoice.choose(for: signer, given: [], source: "the WWDR file")
        #expect(choice.certificates.count == 1)
        #expect(choice.certificates[0].issued(signer))
        #expect(choice.note?.contains("Passmint's copy") == true)
        #expect(choice.note?.contains("AppleWWDRCA-G1-") == true)
        // The right file given: used as it is, nothing said.
        let right = try IntermediateChoice.choose(for: signer, given: choice.certificates, source: "wwdr.pem")
        #expect(right.note == nil)
    }

    @Test func developmentSignerWithAnAppleIntermediateIsRefused() throws {
        let g4 = TestEnvironment.repositoryRoot.appendingPathComponent("Certificates/apple/AppleWWDRCAG4.pem").path
        do {
            _ = try SigningIdentity(certificatePath: path("signer.pem"), keyPath: path("signer.key"), passphrase: nil, wwdrPath: g4)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidIdentity)
            #expect(error.message.contains("did not issue"), "\(error.message)")
            #expect(error.message.contains("Passmint Development"), "the message names the real issuer: \(error.message)")
        }
        // And with no intermediate at all, a development signer has no Apple copy to fall back on.
        #expect(throws: PassmintError.self) {
            try SigningIdentity(certificatePath: path("signer.pem"), keyPath: path("signer.key"), passphrase: nil, wwdrPath: nil)
        }
    }

    @Test func notACertificate() {
        #expect(throws: PassmintError.self) { try Certificate(bytes: Array("hello".utf8), source: "x.pem") }
    }
}
