import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint pay decrypt` and `passmint pay keys`, run as a user would, on the vectors of `Tests/ApplePay/make_tokens.py`.
@Suite(.offPool) struct PayCommandTests {
    static let at = "2026-01-15T10:01:00Z"
    static let pan = "4109370251004320"
    static let cryptogram = "Af9x/QwAA/DjmU65oyc1MAABAAA="

    func passmint(_ arguments: [String]) throws -> TestEnvironment.ProcessResult {
        try TestEnvironment.run(CreateCommandTests.binary, arguments, in: TestEnvironment.repositoryRoot)
    }

    func keys(_ names: [String] = ["merchant-ec", "merchant-rsa"]) throws -> [String] {
        let vectors = try TestEnvironment.applePayVectors()
        return names.flatMap { ["--merchant-cert", vectors.path("\($0).pem"), "--merchant-key", vectors.path("\($0)-key.pem")] }
    }

    func decrypt(_ token: String, _ more: [String] = [], keys names: [String] = ["merchant-ec", "merchant-rsa"]) throws
        -> TestEnvironment.ProcessResult
    {
        let vectors = try TestEnvironment.applePayVectors()
        return try passmint(
            ["pay", "decrypt", vectors.tokenPath(token), "--at", Self.at, "--test-only-root", vectors.path("root.pem")] + (try keys(names))
                + more)
    }

    @Test func decryptPrintsThePaymentDataMaskedUnlessRevealed() throws {
        let masked = try decrypt("ec-whole-appdata")
        #expect(masked.status == 0, "\(masked.stderr)")
        #expect(masked.stdout.contains("************4320") && masked.stdout.contains("amount:                1999 (currency 840)"))
        #expect(!masked.stdout.contains(Self.pan) && !masked.stdout.contains(Self.cryptogram))
        let json = try decrypt("rsa", ["--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let value = try JSONParser.value(Array(json.stdout.utf8))
        #expect(value["applicationPrimaryAccountNumber"]?.stringValue == "************4320")
        #expect(value["token"]?["version"]?.stringValue == "RSA_v1")
        #expect(!json.stdout.contains(Self.pan) && !json.stdout.contains(Self.cryptogram))
        let revealed = try decrypt("ec", ["--json", "--reveal"])
        let full = try JSONParser.value(Array(revealed.stdout.utf8))
        #expect(full["applicationPrimaryAccountNumber"]?.stringValue == Self.pan)
        #expect(full["paymentData"]?["onlinePaymentCryptogram"]?.stringValue == Self.cryptogram)
        let text = try decrypt("ec", ["--reveal"])
        #expect(text.stdout.contains(Self.pan) && text.stdout.contains(Self.cryptogram))
    }

    @Test func aTokenThatDoesNotDecryptExitsNonZeroWithTheReason() throws {
        let wrongKey = try decrypt("rsa", keys: ["merchant-ec"])
        #expect(wrongKey.status != 0)
        #expect(wrongKey.stderr.contains("this RSA_v1 token needs an RSA payment processing key"), "\(wrongKey.stderr)")
        let old = try decrypt("old-signing-time")
        #expect(old.status != 0 && old.stderr.contains("the signing time 2021-09-01T19:03:06Z is 4 years before"), "\(old.stderr)")
        let vectors = try TestEnvironment.applePayVectors()
        let real = try passmint(["pay", "decrypt", vectors.tokenPath("ec"), "--at", Self.at] + (try keys()))
        #expect(real.status != 0 && real.stderr.contains("Apple Root CA - G3"), "a test token is refused by Apple's root: \(real.stderr)")
        for result in [wrongKey, old, real] { #expect(!(result.stdout + result.stderr).contains(Self.pan)) }
        let unpaired = try passmint(["pay", "decrypt", vectors.tokenPath("ec"), "--merchant-cert", vectors.path("merchant-ec.pem")])
        #expect(unpaired.status != 0 && unpaired.stderr.contains("1 --merchant-cert and 0 --merchant-key given"), "\(unpaired.stderr)")
        let badTime = try passmint(["pay", "decrypt", vectors.tokenPath("ec"), "--at", "yesterday"] + (try keys()))
        #expect(badTime.stderr.contains("--at yesterday is not an RFC 3339 time"), "\(badTime.stderr)")
    }

    @Test func keysPrintsEachKeysHashMerchantIdentifierDatesAndMatch() throws {
        let vectors = try TestEnvironment.applePayVectors()
        let good = try passmint(["pay", "keys", "--at", Self.at] + (try keys(["merchant-ec", "merchant-rsa"])))
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        let manifest = try JSONParser.value(Array(try Data(contentsOf: URL(fileURLWithPath: vectors.path("manifest.json")))))
        for token in ["ec", "rsa"] {
            let hash = try #require(manifest[token]?["publicKeyHash"]?.stringValue)
            #expect(good.stdout.contains("publicKeyHash:            \(hash)"))
        }
        #expect(good.stdout.contains("merchant identifier:      merchant.dev.passmint.test"))
        #expect(good.stdout.contains("(= SHA-256 of the UID)") && good.stdout.contains("2025-06-01T00:00:00Z … 2027-06-30T00:00:00Z"))
        let mixed = try passmint([
            "pay", "keys", "--at", Self.at, "--json", "--merchant-cert", vectors.path("merchant-ec.pem"), "--merchant-key",
            vectors.path("merchant-ec-2-key.pem"), "--merchant-cert", vectors.path("merchant-no-id.pem"), "--merchant-key",
            vectors.path("merchant-no-id-key.pem"),
        ])
        #expect(mixed.status == 1)
        let report = try JSONParser.value(Array(mixed.stdout.utf8))
        #expect(report["keys"]?.arrayValue?[0]["keyMatchesCertificate"] == false && report["usable"] == false)
        #expect(report["keys"]?.arrayValue?[1]["error"]?.stringValue?.contains("carries no merchant identifier") == true)
        let later = try passmint(["pay", "keys", "--at", "2028-01-01T00:00:00Z"] + (try keys(["merchant-ec"])))
        #expect(later.status == 1 && later.stdout.contains("NOT valid at 2028-01-01T00:00:00Z"))
    }

    /// An encrypted merchant key (made here with openssl): its password from --passphrase-file or --passphrase-env; without
    /// it the error says how to give it.
    @Test func anEncryptedMerchantKeyDecryptsWithItsPassphrase() throws {
        let vectors = try TestEnvironment.applePayVectors()
        let folder = TestEnvironment.temporaryFolder("pay-encrypted")
        let encrypted = folder.appendingPathComponent("merchant-ec-key.enc.pem").path
        let made = try TestEnvironment.run(
            "/usr/bin/openssl",
            [
                "pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", vectors.path("merchant-ec-key.pem"), "-out", encrypted, "-passout",
                "pass:pw-1",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        try "pw-1\n".write(to: folder.appendingPathComponent("pw"), atomically: true, encoding: .utf8)
        let base = [
            "pay", "decrypt", vectors.tokenPath("ec"), "--at", Self.at, "--test-only-root", vectors.path("root.pem"), "--merchant-cert",
            vectors.path("merchant-ec.pem"), "--merchant-key", encrypted,
        ]
        let fromFile = try passmint(base + ["--passphrase-file", folder.appendingPathComponent("pw").path])
        #expect(fromFile.status == 0 && fromFile.stdout.contains(String(Self.pan.suffix(4))), "\(fromFile.stdout)\(fromFile.stderr)")
        let fromVariable = try TestEnvironment.run(
            CreateCommandTests.binary, base + ["--passphrase-env", "MERCHANT_KEY_PW"], environment: ["MERCHANT_KEY_PW": "pw-1"],
            in: TestEnvironment.repositoryRoot)
        #expect(fromVariable.status == 0, "\(fromVariable.stdout)\(fromVariable.stderr)")
        let without = try passmint(base)
        #expect(
            without.status != 0 && without.stderr.contains("is encrypted: give its passphrase with --passphrase-env"), "\(without.stderr)")
    }

    @Test func benchPrintsTokensPerSecondBesideTheRawCeilingOfEachToken() throws {
        let vectors = try TestEnvironment.applePayVectors()
        let arguments =
            [
                "pay", "bench", vectors.tokenPath("ec"), vectors.tokenPath("rsa"), "--iterations", "2", "--test-only-root",
                vectors.path("root.pem"),
            ]
            + (try keys())
        let text = try passmint(arguments)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.contains("raw ceiling") && text.stdout.contains("ECDH P-256 + ECDSA P-256 SHA-256 verify + AES-GCM"),
            "\(text.stdout)")
        #expect(text.stdout.contains("RSA-OAEP unwrap + ECDSA") && text.stdout.contains("tokens/s") && text.stdout.contains("ratio to raw"))
        let json = try passmint(arguments + ["--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let figures = try #require(try JSONParser.value(Array(json.stdout.utf8)).arrayValue, "\(json.stdout)")
        #expect(figures.map { $0["version"]?.stringValue } == ["EC_v1", "RSA_v1"])
        for token in figures {
            #expect(token["verifiedAt"]?.stringValue == "2026-01-15T10:00:00Z" && token["iterations"] == 2)
            #expect((token["tokensPerSecond"]?.numberValue?.doubleValue ?? 0) > 0, "\(token)")
            #expect((token["rawOperationsPerSecond"]?.numberValue?.doubleValue ?? 0) > 0, "\(token)")
            #expect((token["tokenLatencyMicroseconds"]?["p99"]?.numberValue?.doubleValue ?? 0) > 0, "\(token)")
        }
        #expect(!(text.stdout + json.stdout).contains(Self.pan))
        let tampered = try passmint(
            ["pay", "bench", vectors.tokenPath("tamper-data"), "--iterations", "2", "--test-only-root", vectors.path("root.pem")]
                + (try keys()))
        #expect(tampered.status != 0 && tampered.stderr.contains("one of them was altered"), "\(tampered.stderr)")
    }
}
