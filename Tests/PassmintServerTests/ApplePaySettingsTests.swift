import Foundation
import PassmintPay
import PassmintServer
import PassmintTestSupport
import Testing

/// serve's Apple Pay settings: certificate and key pairs (repeated for rotation, as a list, or as PEM text from a
/// `_FILE` variable) and the processor, read and checked at start with errors that name what to fix.
@Suite struct ApplePaySettingsTests {
    static let url = "https://passes.example.test/wallet"

    static func path(_ name: String) throws -> String { try TestEnvironment.applePayVectors().path(name) }

    static func refusal(_ arguments: [String], _ environment: [String: String] = [:]) async -> String {
        do {
            _ = try await ServerConfigurationTests.read(["--public-url", url] + arguments, environment)
            return "accepted"
        } catch {
            return (error as? ConfigurationError)?.message ?? "\(error)"
        }
    }

    @Test func pairsRepeatedOrListedHoldSeveralKeysInOrder() async throws {
        let (ec, ec2) = (try Self.path("merchant-ec"), try Self.path("merchant-ec-2"))
        let repeated = try await ServerConfigurationTests.read([
            "--public-url", Self.url, "--apple-pay-merchant-cert", ec + ".pem", "--apple-pay-merchant-key", ec + "-key.pem",
            "--apple-pay-merchant-cert", ec2 + ".pem", "--apple-pay-merchant-key", ec2 + "-key.pem",
        ])
        let keys = try #require(repeated.applePay?.decryptor.merchantKeys)
        let expected = [
            try MerchantKey(certificatePath: ec + ".pem", keyPath: ec + "-key.pem").publicKeyHash,
            try MerchantKey(certificatePath: ec2 + ".pem", keyPath: ec2 + "-key.pem").publicKeyHash,
        ]
        #expect(keys.map(\.publicKeyHash) == expected)
        #expect(repeated.applePay?.processor == nil && repeated.applePay?.timeout == .seconds(10))

        let listed = try await ServerConfigurationTests.read(
            ["--public-url", Self.url],
            [
                "PASSMINT_APPLE_PAY_MERCHANT_CERT": "\(ec).pem,\(ec2).pem",
                "PASSMINT_APPLE_PAY_MERCHANT_KEY": "\(ec)-key.pem,\(ec2)-key.pem",
                "PASSMINT_APPLE_PAY_TIMEOUT": "3s",
            ])
        #expect(listed.applePay?.decryptor.merchantKeys.map(\.publicKeyHash) == expected)
        #expect(listed.applePay?.timeout == .seconds(3))

        // PASSMINT_APPLE_PAY_MERCHANT_KEY_FILE: a secret file holding the PEM keys, in order, as other secrets are given.
        let secrets = TestEnvironment.temporaryFolder("apple-pay-secret").appendingPathComponent("keys.pem")
        try (try String(contentsOfFile: ec + "-key.pem", encoding: .utf8) + (try String(contentsOfFile: ec2 + "-key.pem", encoding: .utf8)))
            .write(to: secrets, atomically: true, encoding: .utf8)
        let environment = try SecretFiles.expand([
            "PASSMINT_APPLE_PAY_MERCHANT_CERT": "\(ec).pem,\(ec2).pem", "PASSMINT_APPLE_PAY_MERCHANT_KEY_FILE": secrets.path,
        ])
        let fromFile = try await ServerConfigurationTests.read(["--public-url", Self.url], environment)
        #expect(fromFile.applePay?.decryptor.merchantKeys.map(\.publicKeyHash) == expected)
    }

    /// An encrypted merchant key (made here with openssl) is read with PASSMINT_APPLE_PAY_MERCHANT_KEY_PASSPHRASE (or
    /// its _FILE); without it, or with a wrong one, the start is refused naming the variable or the key.
    @Test func anEncryptedKeyIsReadWithItsPassphrase() async throws {
        let ec = try Self.path("merchant-ec")
        let folder = TestEnvironment.temporaryFolder("apple-pay-encrypted")
        let encrypted = folder.appendingPathComponent("merchant-ec-key.enc.pem").path
        // openssl is waited for on a thread of its own, off the cooperative pool.
        let made = try await offPool {
            Result {
                try TestEnvironment.run(
                    "/usr/bin/openssl",
                    ["pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", ec + "-key.pem", "-out", encrypted, "-passout", "pass:merchant-pw"])
            }
        }.get()
        #expect(made.status == 0, "\(made.stderr)")
        let pair = ["--apple-pay-merchant-cert", ec + ".pem", "--apple-pay-merchant-key", encrypted]
        let expected = try MerchantKey(certificatePath: ec + ".pem", keyPath: ec + "-key.pem").publicKeyHash
        let read = try await ServerConfigurationTests.read(
            ["--public-url", Self.url] + pair, ["PASSMINT_APPLE_PAY_MERCHANT_KEY_PASSPHRASE": "merchant-pw"])
        #expect(read.applePay?.decryptor.merchantKeys.map(\.publicKeyHash) == [expected])
        let secret = folder.appendingPathComponent("passphrase")
        try "merchant-pw\n".write(to: secret, atomically: true, encoding: .utf8)
        let fromFile = try await ServerConfigurationTests.read(
            ["--public-url", Self.url] + pair, try SecretFiles.expand(["PASSMINT_APPLE_PAY_MERCHANT_KEY_PASSPHRASE_FILE": secret.path]))
        #expect(fromFile.applePay?.decryptor.merchantKeys.map(\.publicKeyHash) == [expected])
        #expect(await Self.refusal(pair).contains("the key is encrypted: set PASSMINT_APPLE_PAY_MERCHANT_KEY_PASSPHRASE"))
        #expect(
            await Self.refusal(pair, ["PASSMINT_APPLE_PAY_MERCHANT_KEY_PASSPHRASE": "wrong"]).contains(
                "the encrypted key of \(encrypted) does not open with the password in PASSMINT_APPLE_PAY_MERCHANT_KEY_PASSPHRASE"))
    }

    @Test func whatCannotBeUsedIsRefusedAtStartNamingIt() async throws {
        let (ec, ec2, noID) = (try Self.path("merchant-ec"), try Self.path("merchant-ec-2"), try Self.path("merchant-no-id"))
        let cert = "--apple-pay-merchant-cert"
        let key = "--apple-pay-merchant-key"
        #expect(await Self.refusal([cert, ec + ".pem", key, ec2 + "-key.pem"]).contains("the key is not the certificate's"))
        #expect(
            await Self.refusal([cert, ec + ".pem", key, ec + "-key.pem", cert, ec2 + ".pem"]).contains("give one key for each certificate"))
        #expect(await Self.refusal([cert, ec + ".pem"]).contains("give --apple-pay-merchant-cert and --apple-pay-merchant-key in pairs"))
        #expect(await Self.refusal([cert, noID + ".pem", key, noID + "-key.pem"]).contains("not its Merchant Identity certificate"))
        #expect(await Self.refusal([cert, "/nonexistent/apple.pem", key, ec + "-key.pem"]).contains("/nonexistent/apple.pem"))
        let pair = [cert, ec + ".pem", key, ec + "-key.pem"]
        let secret = ["PASSMINT_APPLE_PAY_PROCESSOR_SECRET": String(repeating: "s", count: 40)]
        #expect(
            await Self.refusal(pair + ["--apple-pay-processor-url", "http://processor.example/pay"], secret).contains(
                "must be an https URL"))
        #expect(
            await Self.refusal(pair + ["--apple-pay-processor-url", "https://processor.example/pay"]).contains(
                "set PASSMINT_APPLE_PAY_PROCESSOR_SECRET"))
        #expect(await Self.refusal(pair, secret).contains("is set but no processor"))
        #expect(await Self.refusal(["--apple-pay-processor-url", "https://processor.example/pay"], secret).contains("no merchant key"))
        let processor = try await ServerConfigurationTests.read(
            ["--public-url", Self.url] + pair + ["--apple-pay-processor-url", "https://processor.example/pay"], secret)
        #expect(processor.applePay?.processor?.url.absoluteString == "https://processor.example/pay")
    }

    @Test func theMerchantIdentityIsReadWithItsDomainAndNameAndCheckedAtStart() async throws {
        let certificates = try await MerchantSessionTests.Certificates.make()
        let identity = try await ServerConfigurationTests.read([
            "--public-url", Self.url, "--apple-pay-merchant-identity", certificates.identity,
        ])
        let read = try #require(identity.merchantIdentity)
        #expect(read.merchantIdentifier == MerchantSessionTests.merchant && read.displayName == MerchantSessionTests.merchant)
        #expect(read.domain == "passes.example.test", "the public URL's host")
        #expect(read.testOnlyGateway == nil)
        let named = try await ServerConfigurationTests.read(
            ["--public-url", Self.url, "--apple-pay-display-name", "Tickets", "--apple-pay-domain", "shop.example.test"],
            ["PASSMINT_APPLE_PAY_MERCHANT_IDENTITY": try String(contentsOfFile: certificates.identity, encoding: .utf8)])
        #expect(named.merchantIdentity?.displayName == "Tickets" && named.merchantIdentity?.domain == "shop.example.test")

        // A certificate with another's key, a file without a key, a certificate without a merchant identifier.
        let folder = certificates.folder
        let mixed =
            try String(contentsOfFile: folder.appendingPathComponent("identity.crt").path, encoding: .utf8)
            + (try String(contentsOfFile: folder.appendingPathComponent("stranger.key").path, encoding: .utf8))
        let mixedPath = folder.appendingPathComponent("mixed.pem").path
        try mixed.write(toFile: mixedPath, atomically: true, encoding: .utf8)
        #expect(
            await Self.refusal(["--apple-pay-merchant-identity", mixedPath]).contains("the private key is not the key of its certificate"))
        let certificateOnly = folder.appendingPathComponent("identity.crt").path
        #expect(await Self.refusal(["--apple-pay-merchant-identity", certificateOnly]).contains("holds no PEM private key"))
        let noIDPath = folder.appendingPathComponent("no-id.pem").path
        let noIDKey = folder.appendingPathComponent("no-id.key").path
        try await offPool {
            Result {
                try MerchantSessionTests.Certificates.openssl([
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", noIDKey, "-out", noIDPath,
                    "-days", "2", "-subj", "/CN=Not a Merchant Identity",
                ])
            }
        }.get()
        try (try String(contentsOfFile: noIDPath, encoding: .utf8) + (try String(contentsOfFile: noIDKey, encoding: .utf8)))
            .write(toFile: noIDPath, atomically: true, encoding: .utf8)
        #expect(await Self.refusal(["--apple-pay-merchant-identity", noIDPath]).contains("carries no merchant identifier (UID)"))
    }

    /// A Merchant Identity whose key is encrypted (made here with openssl) is read with the merchant keys' password,
    /// PASSMINT_APPLE_PAY_MERCHANT_KEY_PASSPHRASE (or its _FILE); without it, or with a wrong one, the start is refused
    /// naming the variable or the file.
    @Test func anEncryptedMerchantIdentityKeyIsReadWithTheMerchantKeysPassphrase() async throws {
        let certificates = try await MerchantSessionTests.Certificates.make()
        let path = try await certificates.encryptedIdentity(passphrase: "identity-pw")
        let flag = ["--apple-pay-merchant-identity", path]
        let read = try await ServerConfigurationTests.read(
            ["--public-url", Self.url] + flag, ["PASSMINT_APPLE_PAY_MERCHANT_KEY_PASSPHRASE": "identity-pw"])
        #expect(read.merchantIdentity?.merchantIdentifier == MerchantSessionTests.merchant)
        let secret = certificates.folder.appendingPathComponent("identity-passphrase")
        try "identity-pw\n".write(to: secret, atomically: true, encoding: .utf8)
        let fromFile = try await ServerConfigurationTests.read(
            ["--public-url", Self.url] + flag, try SecretFiles.expand(["PASSMINT_APPLE_PAY_MERCHANT_KEY_PASSPHRASE_FILE": secret.path]))
        #expect(fromFile.merchantIdentity?.merchantIdentifier == MerchantSessionTests.merchant)
        let without = await Self.refusal(flag)
        #expect(
            without.contains("the Merchant Identity")
                && without.contains("the key is encrypted: set PASSMINT_APPLE_PAY_MERCHANT_KEY_PASSPHRASE"), "\(without)")
        let wrong = await Self.refusal(flag, ["PASSMINT_APPLE_PAY_MERCHANT_KEY_PASSPHRASE": "wrong"])
        #expect(
            wrong.contains(
                "the encrypted key of --apple-pay-merchant-identity \(path) does not open with the password in PASSMINT_APPLE_PAY_MERCHANT_KEY_PASSPHRASE"
            ),
            "\(wrong)")
    }
}
