import Foundation
import Passmint
import PassmintGoogle
import PassmintServer
import PassmintTestSupport
import Testing

/// serve's Google settings: both the key file and the issuer id, or neither; a bad one stops the start.
@Suite struct GoogleSettingsTests {
    static let base = ["--public-url", "https://p.example.test"]

    /// A real service account key file (made with openssl, on a thread of its own).
    static func keyFile() async throws -> URL {
        try await offPool {
            Result {
                try TestServiceAccount(folder: TestEnvironment.temporaryFolder("google-settings"))
                    .writeKeyFile(tokenURI: "https://oauth2.example.test/token")
            }
        }.get()
    }

    static func refusal(_ arguments: [String], _ environment: [String: String] = [:]) async -> String? {
        do {
            _ = try await ServerConfigurationTests.read(base + arguments, environment)
            return nil
        } catch {
            return (error as? ConfigurationError)?.message ?? "\(error)"
        }
    }

    @Test func withoutGoogleSettingsTheServiceIssuesForAppleOnly() async throws {
        #expect(try await ServerConfigurationTests.read(Self.base).google == nil)
    }

    @Test func theKeyFileAndIssuerAreReadFromFlagsOrVariablesWithGooglesAPIByDefault() async throws {
        let key = try await Self.keyFile()
        let fromFlags = try await ServerConfigurationTests.read(
            Self.base + ["--google-service-account", key.path, "--google-issuer-id", "3388000000012345678"])
        let google = try #require(fromFlags.google)
        #expect(google.issuerID == "3388000000012345678")
        #expect(google.key.clientEmail == "passmint-tests@passmint-test.iam.gserviceaccount.com")
        #expect(google.apiURL == GoogleWalletClient.production)
        let fromVariables = try await ServerConfigurationTests.read(
            Self.base,
            [
                "PASSMINT_GOOGLE_SERVICE_ACCOUNT": key.path, "PASSMINT_GOOGLE_ISSUER_ID": "42",
                "PASSMINT_GOOGLE_API_URL": "http://127.0.0.1:9/",
            ])
        #expect(fromVariables.google?.issuerID == "42")
        #expect(fromVariables.google?.apiURL.absoluteString == "http://127.0.0.1:9/")
    }

    @Test func oneWithoutTheOtherIsRefusedNamingWhatIsMissing() async throws {
        let key = try await Self.keyFile()
        let keyOnly = await Self.refusal(["--google-service-account", key.path])
        #expect(
            keyOnly?.hasPrefix("--google-service-account names a Google service account but no issuer id: give --google-issuer-id") == true)
        let issuerOnly = await Self.refusal([], ["PASSMINT_GOOGLE_ISSUER_ID": "42"])
        #expect(
            issuerOnly?.hasPrefix(
                "PASSMINT_GOOGLE_ISSUER_ID names a Google issuer id but no service account: give --google-service-account") == true)
    }

    @Test func aBadKeyFileOrIssuerIdStopsTheStart() async throws {
        let folder = TestEnvironment.temporaryFolder("google-settings")
        let wrongType = folder.appendingPathComponent("user.json")
        try Data(#"{"type": "authorized_user"}"#.utf8).write(to: wrongType)
        let notKey = await Self.refusal(["--google-service-account", wrongType.path, "--google-issuer-id", "42"])
        #expect(
            notKey?.hasPrefix(
                "setting google-service-account, from --google-service-account: \(wrongType.path): \"type\" is \"authorized_user\", not \"service_account\""
            ) == true, "\(notKey ?? "")")
        let missing = folder.appendingPathComponent("absent.json").path
        let absent = await Self.refusal(["--google-service-account", missing, "--google-issuer-id", "42"])
        #expect(absent?.hasPrefix("setting google-service-account, from --google-service-account: ") == true)
        #expect(absent?.contains(missing) == true, "\(absent ?? "")")
        let key = try await Self.keyFile()
        let badIssuer = await Self.refusal(["--google-service-account", key.path], ["PASSMINT_GOOGLE_ISSUER_ID": "acme"])
        #expect(
            badIssuer?.hasPrefix("setting google-issuer-id, from PASSMINT_GOOGLE_ISSUER_ID: issuer id \"acme\" is not a number") == true)
    }

    @Test func callbackKeysAreReadFromTheirFileAndABadOrLoneOneStopsTheStart() async throws {
        let key = try await Self.keyFile()
        let folder = TestEnvironment.temporaryFolder("google-callback-settings")
        let keys = folder.appendingPathComponent("keys.json")
        try GoogleCallbackSigner(intermediateExpiration: Date()).writeKeys(to: keys)
        let account = ["--google-service-account", key.path, "--google-issuer-id", "42"]
        let read = try await ServerConfigurationTests.read(Self.base + account, ["PASSMINT_GOOGLE_CALLBACK_KEYS": keys.path])
        #expect(read.google?.callbackKeysFile == keys.path)
        #expect(try await ServerConfigurationTests.read(Self.base + account).google?.callbackKeysFile == nil)
        let bad = folder.appendingPathComponent("bad.json")
        try Data(#"{"keys":[]}"#.utf8).write(to: bad)
        let refused = await Self.refusal(account + ["--google-callback-keys", bad.path])
        #expect(
            refused?.hasPrefix("setting google-callback-keys, from --google-callback-keys: \(bad.path) holds no key") == true,
            "\(refused ?? "")")
        let alone = await Self.refusal(["--google-callback-keys", keys.path])
        #expect(alone?.contains("names Google's callback keys but no Google account") == true, "\(alone ?? "")")
    }
}
