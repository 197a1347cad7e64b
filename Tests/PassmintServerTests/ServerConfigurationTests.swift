import Foundation
import Logging
import Passmint
import PassmintServer
import PassmintStore
import Testing

/// The service's configuration, read from the command line and the environment in one place.
@Suite struct ServerConfigurationTests {
    static func read(_ arguments: [String] = [], _ environment: [String: String] = [:]) async throws -> ServerConfiguration {
        try ServerConfiguration(
            settings: try await SettingSources(arguments: arguments, environment: environment), environment: environment,
            identities: { SigningIdentities(try ServiceHarness.identity()) })
    }

    func read(_ arguments: [String] = [], _ environment: [String: String] = [:]) async throws -> ServerConfiguration {
        try await Self.read(arguments, environment)
    }

    @Test func anOptionWinsOverItsVariableAndTheVariableOverTheDefault() async throws {
        let defaults = try await read(["--public-url", "https://passes.example.test/wallet/"])
        #expect(defaults.host == "127.0.0.1" && defaults.port == 8080 && defaults.database.name == "passmint.sqlite")
        #expect(defaults.templatesFolder == "PassTemplates" && defaults.fastPath && defaults.apiKey == nil && defaults.logLevel == .info)
        #expect(defaults.publicURL == "https://passes.example.test/wallet", "no trailing slash")
        #expect(defaults.pathPrefix == "/wallet")
        #expect(defaults.apns.endpoint.absoluteString == "https://api.push.apple.com" && !defaults.allowHTTP)
        #expect(defaults.apns.connections == 2)
        #expect(defaults.selfCheck == nil, "no self-check unless asked")
        let selfCheck = try await read(["--public-url", "https://passes.example.test/wallet", "--self-check", "pass.com.example/check-1"])
        #expect(selfCheck.selfCheck == PassKey(passTypeIdentifier: "pass.com.example", serialNumber: "check-1"))

        let environment = [
            "PASSMINT_PUBLIC_URL": "https://env.example.test", "PASSMINT_HOST": "0.0.0.0", "PASSMINT_PORT": "9000",
            "PASSMINT_DATABASE_URL": "postgres://u@db/p", "PASSMINT_TEMPLATES": "/srv/templates",
            "PASSMINT_APNS_URL": "https://127.0.0.1:9443",
            "PASSMINT_APNS_CA": "/ca.pem", "PASSMINT_APNS_KEY": "/AuthKey_K.p8", "PASSMINT_APNS_KEY_ID": "K", "PASSMINT_APNS_TEAM_ID": "T",
            "PASSMINT_APNS_CONNECTIONS": "3",
            "PASSMINT_FAST_PATH": "0", "PASSMINT_API_KEY": "key-from-the-environment", "LOG_LEVEL": "debug", "PASSMINT_ALLOW_HTTP": "1",
        ]
        let fromEnvironment = try await read([], environment)
        #expect(fromEnvironment.publicURL == "https://env.example.test" && fromEnvironment.pathPrefix == "")
        #expect(fromEnvironment.host == "0.0.0.0" && fromEnvironment.port == 9000)
        #expect(fromEnvironment.database.name == "postgres db:5432 sslmode=prefer")
        #expect(fromEnvironment.templatesFolder == "/srv/templates" && !fromEnvironment.fastPath && fromEnvironment.logLevel == .debug)
        #expect(fromEnvironment.apns.endpoint.absoluteString == "https://127.0.0.1:9443")
        #expect(fromEnvironment.apns.trustRootsFile == "/ca.pem")
        #expect(fromEnvironment.apns.authKeyFile == "/AuthKey_K.p8" && fromEnvironment.apns.keyIdentifier == "K")
        #expect(fromEnvironment.apns.teamIdentifier == "T" && fromEnvironment.apiKey == "key-from-the-environment")
        #expect(fromEnvironment.allowHTTP && fromEnvironment.apns.connections == 3)
        let http = try await read(["--public-url", "http://192.168.1.20:8080/wallet", "--allow-http"])
        #expect(http.allowHTTP && http.publicURL == "http://192.168.1.20:8080/wallet")

        let options = ["--public-url", "https://option.example.test/w", "--port", "9001", "--templates", "T", "--fast-path"]
        let fromOptions = try await read(options, environment)
        #expect(fromOptions.publicURL == "https://option.example.test/w" && fromOptions.port == 9001 && fromOptions.templatesFolder == "T")
        #expect(fromOptions.fastPath && fromOptions.host == "0.0.0.0", "options win; the environment fills the rest")
    }

    @Test func connectionLimitsAreReadAndCheckedLikeEveryOtherSetting() async throws {
        let defaults = try await read(["--public-url", "https://p.example.test"])
        #expect(defaults.connections == ConnectionLimits())
        let set = try await read(
            ["--public-url", "https://p.example.test", "--header-timeout", "5s", "--max-connections", "300"],
            ["PASSMINT_IDLE_TIMEOUT": "2m"])
        #expect(set.connections.headerTimeout == .seconds(5) && set.connections.idleTimeout == .seconds(120))
        #expect(set.connections.maximumConnections == 300)
        let hostile = try await read(
            ["--public-url", "https://p.example.test", "--body-timeout", "20s", "--max-connections-per-address", "16"],
            ["PASSMINT_TRUSTED_PROXY": "10.0.0.0/8, 2001:db8::1"])
        #expect(hostile.connections.bodyTimeout == .seconds(20) && hostile.connections.maximumConnectionsPerAddress == 16)
        #expect(hostile.trustedProxies.map(\.description) == ["10.0.0.0/8", "2001:db8::1/128"])
        #expect(defaults.trustedProxies.isEmpty && defaults.connections.maximumConnectionsPerAddress == 256)
        for (flag, text) in [
            ("--trusted-proxy", "10.0.0.0/8,proxy.local"), ("--max-connections-per-address", "-1"), ("--body-timeout", "later"),
            ("--max-connections", "0"), ("--header-timeout", "soon"),
        ] {
            let error = await #expect(throws: ConfigurationError.self) {
                try await read(["--public-url", "https://p.example.test", flag, text])
            }
            #expect(
                error?.description.contains("setting \(flag.dropFirst(2)), from \(flag): \"\(text)\" is not") == true,
                "\(String(describing: error))")
        }
    }

    /// Every flag and variable of serve before its settings were declared in one place keeps its name (and
    /// events-retention, which came with the statistics, keeps the variable it came with).
    @Test func everySettingKeepsItsFlagAndVariable() {
        let flags = ServeSettings.all.map(\.flag).joined(separator: " ")
        #expect(
            flags == """
                --host --port --public-url --database-url --templates --order-templates --apns-url --apns-ca --apns-key --apns-key-id \
                --apns-team-id --apns-connections \
                --allow-http --no-fast-path --link-lifetime --push-lease --job-lease --jobs-folder --header-timeout --idle-timeout \
                --body-timeout \
                --max-connections --max-connections-per-address --trusted-proxy --max-value-size --events-retention \
                --webhooks-allow-http --webhooks-allow-private --job-failures-kept --job-upload-retention --jobs-disk-reserve \
                --google-service-account --google-issuer-id --google-api-url --google-callback-keys \
                --apple-pay-merchant-cert --apple-pay-merchant-key --apple-pay-processor-url --apple-pay-processor-ca \
                --apple-pay-merchant-identity --apple-pay-display-name --apple-pay-domain --apple-pay-timeout --self-check \
                --log-format --config-file
                """)
        let variables = ServeSettings.all.map(\.variable).joined(separator: " ")
        #expect(
            variables == """
                PASSMINT_HOST PASSMINT_PORT PASSMINT_PUBLIC_URL PASSMINT_DATABASE_URL PASSMINT_TEMPLATES PASSMINT_ORDER_TEMPLATES \
                PASSMINT_APNS_URL \
                PASSMINT_APNS_CA PASSMINT_APNS_KEY PASSMINT_APNS_KEY_ID PASSMINT_APNS_TEAM_ID PASSMINT_APNS_CONNECTIONS \
                PASSMINT_ALLOW_HTTP PASSMINT_FAST_PATH \
                PASSMINT_LINK_LIFETIME PASSMINT_PUSH_LEASE PASSMINT_JOB_LEASE PASSMINT_JOBS_FOLDER PASSMINT_HEADER_TIMEOUT \
                PASSMINT_IDLE_TIMEOUT \
                PASSMINT_BODY_TIMEOUT PASSMINT_MAX_CONNECTIONS PASSMINT_MAX_CONNECTIONS_PER_ADDRESS PASSMINT_TRUSTED_PROXY \
                PASSMINT_MAX_VALUE_SIZE PASSMINT_EVENTS_RETENTION PASSMINT_WEBHOOKS_ALLOW_HTTP PASSMINT_WEBHOOKS_ALLOW_PRIVATE \
                PASSMINT_JOB_FAILURES_KEPT PASSMINT_JOB_UPLOAD_RETENTION PASSMINT_JOBS_DISK_RESERVE PASSMINT_GOOGLE_SERVICE_ACCOUNT \
                PASSMINT_GOOGLE_ISSUER_ID PASSMINT_GOOGLE_API_URL PASSMINT_GOOGLE_CALLBACK_KEYS \
                PASSMINT_APPLE_PAY_MERCHANT_CERT PASSMINT_APPLE_PAY_MERCHANT_KEY PASSMINT_APPLE_PAY_PROCESSOR_URL \
                PASSMINT_APPLE_PAY_PROCESSOR_CA PASSMINT_APPLE_PAY_MERCHANT_IDENTITY PASSMINT_APPLE_PAY_DISPLAY_NAME \
                PASSMINT_APPLE_PAY_DOMAIN PASSMINT_APPLE_PAY_TIMEOUT PASSMINT_SELF_CHECK PASSMINT_LOG_FORMAT PASSMINT_CONFIG_FILE
                """)
        #expect(Set(ServeSettings.all.map(\.name)).count == ServeSettings.all.count)
    }

    @Test func theAPIKeyComesFromTheVariableNamed() async throws {
        let environment = ["MY_KEY": "0123456789abcdef", "PASSMINT_API_KEY": "not this one"]
        let configuration = try ServerConfiguration(
            settings: try await SettingSources(arguments: ["--public-url", "https://p.example.test"], environment: environment),
            environment: environment, apiKeyVariable: "MY_KEY", identities: { SigningIdentities(try ServiceHarness.identity()) })
        #expect(configuration.apiKey == "0123456789abcdef")
    }

    @Test(
        arguments: [
            ([], [:], "give --public-url (or PASSMINT_PUBLIC_URL, or \"public-url\" in the config file)"),
            (["--public-url", "passes"], [:], "setting public-url, from --public-url: \"passes\" is not a URL"),
            (
                ["--public-url", "https://p.example.test"], ["PASSMINT_PORT": "80a"],
                "setting port, from PASSMINT_PORT: \"80a\" is not a port number"
            ),
            (["--public-url", "http://p.example.test"], [:], "uses http, and Wallet talks only to https web services"),
            (["--public-url", "http://p.example.test"], ["PASSMINT_ALLOW_HTTP": "0"], "or add --allow-http (PASSMINT_ALLOW_HTTP=1)"),
            (
                ["--public-url", "http://p.example.test"], ["PASSMINT_ALLOW_HTTP": "yes"],
                "from PASSMINT_ALLOW_HTTP: \"yes\" is not 1, 0, true or false"
            ),
            (["--public-url", "ftp://p.example.test"], ["PASSMINT_ALLOW_HTTP": "1"], "must be an https URL"),
            (["--public-url", "https://p.example.test", "--port", "70000"], [:], "is not a port number (0–65535)"),
            (
                ["--public-url", "https://p.example.test", "--apns-url", "nowhere"], [:],
                "setting apns-url, from --apns-url: \"nowhere\" is not a URL"
            ),
            (
                ["--public-url", "https://p.example.test"], ["PASSMINT_API_KEY": "short"],
                "the API key in PASSMINT_API_KEY must have at least 16"
            ),
            (["--public-url", "https://p.example.test", "--link-lifetime", "3w"], [:], "from --link-lifetime: \"3w\" is not a duration"),
        ] as [([String], [String: String], String)])
    func badSettingsAreRefusedBeforeTheIdentityLoads(_ arguments: [String], _ environment: [String: String], _ message: String) async {
        var loaded = false
        await #expect {
            try ServerConfiguration(
                settings: try await SettingSources(arguments: arguments, environment: environment), environment: environment,
                identities: {
                    loaded = true
                    return SigningIdentities(try ServiceHarness.identity())
                })
        } throws: { error in
            (error as? ConfigurationError)?.message.contains(message) == true
        }
        #expect(!loaded)
    }

    /// The bounds of bulk changes (issue 32, items 5 and 6): defaults, sizes with units, and refusals naming the setting.
    @Test func jobLimitsAreReadWithTheirUnits() async throws {
        let url = ["--public-url", "https://x.test/wallet"]
        let defaults = try await read(url).jobLimits
        #expect(defaults.maximumValueBytes == 65_536 && defaults.failuresKept == 10_000 && defaults.diskReserve == 256 << 20)
        #expect(defaults.uploadRetention == .zero)
        let given = try await read(
            url + ["--max-value-size", "16k", "--job-failures-kept", "50", "--job-upload-retention", "7d"],
            ["PASSMINT_JOBS_DISK_RESERVE": "1g"]
        ).jobLimits
        #expect(given.maximumValueBytes == 16_384 && given.failuresKept == 50 && given.uploadRetention == .seconds(604_800))
        #expect(given.diskReserve == 1 << 30)
        for (flag, bad) in [
            ("--max-value-size", "0"), ("--max-value-size", "17m"), ("--job-failures-kept", "-1"), ("--jobs-disk-reserve", "lots"),
        ] {
            await #expect {
                try await read(url + [flag, bad])
            } throws: { error in
                (error as? ConfigurationError)?.origin == .commandLine(flag: flag) && (error as? ConfigurationError)?.value == bad
            }
        }
    }
}
