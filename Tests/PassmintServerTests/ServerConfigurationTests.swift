import Foundation
import Logging
import Passmint
import PassmintServer
import Testing

/// The service's configuration, read from options and the environment in one place.
@Suite struct ServerConfigurationTests {
    typealias Setting = ServerConfiguration.Setting

    func read(_ options: [Setting: String] = [:], _ environment: [String: String] = [:]) throws -> ServerConfiguration {
        try ServerConfiguration(
            options: options, environment: environment, identities: { SigningIdentities(try ServiceHarness.identity()) })
    }

    @Test func anOptionWinsOverItsVariableAndTheVariableOverTheDefault() throws {
        let defaults = try read([.publicURL: "https://passes.example.test/wallet/"])
        #expect(defaults.host == "127.0.0.1" && defaults.port == 8080 && defaults.databaseURL == "passmint.sqlite")
        #expect(defaults.templatesFolder == "PassTemplates" && defaults.fastPath && defaults.apiKey == nil && defaults.logLevel == .info)
        #expect(defaults.publicURL == "https://passes.example.test/wallet", "no trailing slash")
        #expect(defaults.pathPrefix == "/wallet")
        #expect(defaults.apns.endpoint.absoluteString == "https://api.push.apple.com" && !defaults.allowHTTP)

        let environment = [
            "PASSMINT_PUBLIC_URL": "https://env.example.test", "PASSMINT_HOST": "0.0.0.0", "PASSMINT_PORT": "9000",
            "PASSMINT_DATABASE_URL": "postgres://u@db/p", "PASSMINT_TEMPLATES": "/srv/templates",
            "PASSMINT_APNS_URL": "https://127.0.0.1:9443",
            "PASSMINT_APNS_CA": "/ca.pem", "PASSMINT_APNS_KEY": "/AuthKey_K.p8", "PASSMINT_APNS_KEY_ID": "K", "PASSMINT_APNS_TEAM_ID": "T",
            "PASSMINT_FAST_PATH": "0", "PASSMINT_API_KEY": "key-from-the-environment", "LOG_LEVEL": "debug", "PASSMINT_ALLOW_HTTP": "1",
        ]
        let fromEnvironment = try read([:], environment)
        #expect(fromEnvironment.publicURL == "https://env.example.test" && fromEnvironment.pathPrefix == "")
        #expect(fromEnvironment.host == "0.0.0.0" && fromEnvironment.port == 9000 && fromEnvironment.databaseURL == "postgres://u@db/p")
        #expect(fromEnvironment.templatesFolder == "/srv/templates" && !fromEnvironment.fastPath && fromEnvironment.logLevel == .debug)
        #expect(fromEnvironment.apns.endpoint.absoluteString == "https://127.0.0.1:9443")
        #expect(fromEnvironment.apns.trustRootsFile == "/ca.pem")
        #expect(fromEnvironment.apns.authKeyFile == "/AuthKey_K.p8" && fromEnvironment.apns.keyIdentifier == "K")
        #expect(fromEnvironment.apns.teamIdentifier == "T" && fromEnvironment.apiKey == "key-from-the-environment")
        #expect(fromEnvironment.allowHTTP)
        let http = try read([.publicURL: "http://192.168.1.20:8080/wallet", .allowHTTP: "1"])
        #expect(http.allowHTTP && http.publicURL == "http://192.168.1.20:8080/wallet")

        let options: [Setting: String] = [.publicURL: "https://option.example.test/w", .port: "9001", .templates: "T", .fastPath: "1"]
        let fromOptions = try read(options, environment)
        #expect(fromOptions.publicURL == "https://option.example.test/w" && fromOptions.port == 9001 && fromOptions.templatesFolder == "T")
        #expect(fromOptions.fastPath && fromOptions.host == "0.0.0.0", "options win; the environment fills the rest")
    }

    @Test func connectionLimitsAreReadAndCheckedLikeEveryOtherSetting() throws {
        let defaults = try read([.publicURL: "https://p.example.test"])
        #expect(defaults.connections == ConnectionLimits())
        let set = try read(
            [.publicURL: "https://p.example.test", .headerTimeout: "5s", .maxConnections: "300"], ["PASSMINT_IDLE_TIMEOUT": "2m"])
        #expect(set.connections.headerTimeout == .seconds(5) && set.connections.idleTimeout == .seconds(120))
        #expect(set.connections.maximumConnections == 300)
        let hostile = try read(
            [.publicURL: "https://p.example.test", .bodyTimeout: "20s", .maxConnectionsPerAddress: "16"],
            ["PASSMINT_TRUSTED_PROXY": "10.0.0.0/8, 2001:db8::1"])
        #expect(hostile.connections.bodyTimeout == .seconds(20) && hostile.connections.maximumConnectionsPerAddress == 16)
        #expect(hostile.trustedProxies.map(\.description) == ["10.0.0.0/8", "2001:db8::1/128"])
        #expect(defaults.trustedProxies.isEmpty && defaults.connections.maximumConnectionsPerAddress == 256)
        for (setting, text, named) in [
            (Setting.trustedProxy, "10.0.0.0/8,proxy.local", "--trusted-proxy (or PASSMINT_TRUSTED_PROXY) \"10.0.0.0/8,proxy.local\""),
            (.maxConnectionsPerAddress, "-1", "--max-connections-per-address (or PASSMINT_MAX_CONNECTIONS_PER_ADDRESS) \"-1\""),
            (.bodyTimeout, "later", "--body-timeout (or PASSMINT_BODY_TIMEOUT) \"later\""),
            (Setting.maxConnections, "0", "--max-connections (or PASSMINT_MAX_CONNECTIONS) \"0\""),
            (.headerTimeout, "soon", "--header-timeout (or PASSMINT_HEADER_TIMEOUT) \"soon\""),
        ] {
            let error = #expect(throws: ConfigurationError.self) { try read([.publicURL: "https://p.example.test", setting: text]) }
            #expect(error?.description.contains(named) == true, "\(String(describing: error))")
        }
    }

    @Test func everySettingHasAnOptionAndAVariable() {
        #expect(Setting.publicURL.option == "--public-url" && Setting.publicURL.environmentVariable == "PASSMINT_PUBLIC_URL")
        #expect(Setting.apnsKeyID.option == "--apns-key-id" && Setting.apnsKeyID.environmentVariable == "PASSMINT_APNS_KEY_ID")
        #expect(Setting.apnsCA.option == "--apns-ca" && Setting.fastPath.environmentVariable == "PASSMINT_FAST_PATH")
        let variables = Setting.allCases.map(\.environmentVariable).joined(separator: " ")
        #expect(
            variables == """
                PASSMINT_HOST PASSMINT_PORT PASSMINT_TEMPLATES PASSMINT_PUBLIC_URL PASSMINT_DATABASE_URL PASSMINT_APNS_URL PASSMINT_APNS_CA \
                PASSMINT_APNS_KEY PASSMINT_APNS_KEY_ID PASSMINT_APNS_TEAM_ID PASSMINT_FAST_PATH PASSMINT_ALLOW_HTTP PASSMINT_LINK_LIFETIME \
                PASSMINT_PUSH_LEASE PASSMINT_JOBS_FOLDER PASSMINT_HEADER_TIMEOUT PASSMINT_IDLE_TIMEOUT PASSMINT_MAX_CONNECTIONS \
                PASSMINT_MAX_VALUE_SIZE PASSMINT_JOB_FAILURES_KEPT PASSMINT_JOB_UPLOAD_RETENTION PASSMINT_JOBS_DISK_RESERVE \
                PASSMINT_BODY_TIMEOUT PASSMINT_MAX_CONNECTIONS_PER_ADDRESS PASSMINT_TRUSTED_PROXY
                """)
        #expect(Set(Setting.allCases.map(\.environmentVariable)).count == Setting.allCases.count)
    }

    @Test func theAPIKeyComesFromTheVariableNamed() throws {
        let configuration = try ServerConfiguration(
            options: [.publicURL: "https://p.example.test"],
            environment: ["MY_KEY": "0123456789abcdef", "PASSMINT_API_KEY": "not this one"],
            apiKeyVariable: "MY_KEY", identities: { SigningIdentities(try ServiceHarness.identity()) })
        #expect(configuration.apiKey == "0123456789abcdef")
    }

    @Test(
        arguments: [
            ([:], [:], "give --public-url (or PASSMINT_PUBLIC_URL)"),
            ([Setting.publicURL: "passes"], [:], "--public-url (or PASSMINT_PUBLIC_URL) \"passes\" is not a URL"),
            ([.publicURL: "https://p.example.test"], ["PASSMINT_PORT": "80a"], "--port (or PASSMINT_PORT) \"80a\" is not a port number"),
            ([.publicURL: "http://p.example.test"], [:], "uses http, and Wallet talks only to https web services"),
            ([.publicURL: "http://p.example.test"], ["PASSMINT_ALLOW_HTTP": "yes"], "or add --allow-http (PASSMINT_ALLOW_HTTP=1)"),
            ([.publicURL: "ftp://p.example.test"], ["PASSMINT_ALLOW_HTTP": "1"], "must be an https URL"),
            ([.publicURL: "https://p.example.test", .port: "70000"], [:], "is not a port number (0–65535)"),
            (
                [.publicURL: "https://p.example.test", .apnsURL: "nowhere"], [:],
                "--apns-url (or PASSMINT_APNS_URL) \"nowhere\" is not a URL"
            ),
            (
                [.publicURL: "https://p.example.test"], ["PASSMINT_API_KEY": "short"],
                "the API key in PASSMINT_API_KEY must have at least 16"
            ),
        ] as [([Setting: String], [String: String], String)])
    func badSettingsAreRefusedBeforeTheIdentityLoads(_ options: [Setting: String], _ environment: [String: String], _ message: String) {
        var loaded = false
        #expect {
            try ServerConfiguration(
                options: options, environment: environment,
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
    @Test func jobLimitsAreReadWithTheirUnits() throws {
        let url: [Setting: String] = [.publicURL: "https://x.test/wallet"]
        let defaults = try read(url).jobLimits
        #expect(defaults.maximumValueBytes == 65_536 && defaults.failuresKept == 10_000 && defaults.diskReserve == 256 << 20)
        #expect(defaults.uploadRetention == .zero)
        let given = try read(
            url.merging([.maxValueSize: "16k", .jobFailuresKept: "50", .jobUploadRetention: "7d"]) { $1 },
            ["PASSMINT_JOBS_DISK_RESERVE": "1g"]
        ).jobLimits
        #expect(given.maximumValueBytes == 16_384 && given.failuresKept == 50 && given.uploadRetention == .seconds(604_800))
        #expect(given.diskReserve == 1 << 30)
        for (setting, bad) in [(Setting.maxValueSize, "0"), (.maxValueSize, "17m"), (.jobFailuresKept, "-1"), (.jobsDiskReserve, "lots")] {
            #expect {
                try read(url.merging([setting: bad]) { $1 })
            } throws: { error in
                "\(error)".contains(setting.option)
            }
        }
    }
}
