import Foundation
import Passmint
import PassmintServer
import PassmintTestSupport
import Testing

/// serve's settings, each declared once (``ServeSettings``): read from the command line, then the `PASSMINT_*`
/// environment, then a JSON config file; bad values refused naming the setting, its source and what it allows.
@Suite struct ServeSettingsTests {
    let url = ["--public-url", "https://passes.example.test/wallet"]

    /// A config file holding `json`, in a folder of its own.
    func configFile(_ json: String) throws -> String {
        let file = TestEnvironment.temporaryFolder("settings").appendingPathComponent("serve.json")
        try Data(json.utf8).write(to: file)
        return file.path
    }

    func refusal(_ arguments: [String], _ environment: [String: String] = [:]) async -> ConfigurationError? {
        await #expect(throws: ConfigurationError.self) { try await ServerConfigurationTests.read(self.url + arguments, environment) }
    }

    @Test func theCommandLineWinsOverTheEnvironmentAndTheEnvironmentOverTheFile() async throws {
        let file = try configFile(
            """
            {"port": 7000, "host": "10.0.0.7", "templates": "FileTemplates", "max-connections": 500, "allow-http": true,
             "public-url": "http://file.example.test/w", "trusted-proxy": ["10.0.0.0/8", "192.0.2.7"], "push-lease": "2m",
             "fast-path": false}
            """)
        let environment = ["PASSMINT_PORT": "8000", "PASSMINT_HOST": "10.0.0.8", "PASSMINT_CONFIG_FILE": file]
        let all = try await ServerConfigurationTests.read(["--port", "9000"], environment)
        #expect(all.port == 9000, "the flag")
        #expect(all.host == "10.0.0.8", "the variable")
        #expect(all.templatesFolder == "FileTemplates" && all.connections.maximumConnections == 500 && all.pushLease == .seconds(120))
        #expect(all.allowHTTP && all.publicURL == "http://file.example.test/w" && !all.fastPath)
        #expect(all.trustedProxies.map(\.description) == ["10.0.0.0/8", "192.0.2.7/32"])
        #expect(all.connections.idleTimeout == .seconds(60), "the default")
        let fileOnly = try await ServerConfigurationTests.read(["--config-file", file])
        #expect(fileOnly.port == 7000 && fileOnly.host == "10.0.0.7")
        let switchedOn = try await ServerConfigurationTests.read(["--config-file", file, "--fast-path"], ["PASSMINT_ALLOW_HTTP": "1"])
        #expect(switchedOn.fastPath && switchedOn.allowHTTP)
        let sources = try await SettingSources(arguments: ["--no-fast-path"], environment: environment)
        #expect(try sources.text(ServeSettings.declared.fastPath.declaration)?.origin == .commandLine(flag: "--no-fast-path"))
        #expect(try sources.text(ServeSettings.declared.templates.declaration)?.origin == .file(path: file, key: "templates"))
    }

    /// Each setting is read from its flag, its variable and its config-file key, under the names the docs give.
    @Test func everySettingIsReadFromEachOfItsSources() async throws {
        let samples = ["url": "https://a.example.test", "duration": "5s", "N": "3", "port": "81", "size": "2k", "CIDR": "10.0.0.0/8"]
        for setting in ServeSettings.all {
            let empty = try configFile("{}")
            let text = setting.isSwitch ? "true" : setting.fileKey == nil ? empty : samples[setting.valueName] ?? "some-text"
            let arguments = setting.isSwitch ? ["--" + setting.name] : [setting.flag, text]
            let fromFlag = try await SettingSources(arguments: arguments, environment: [:]).text(setting)
            #expect(fromFlag?.text == text && fromFlag?.origin == .commandLine(flag: "--" + setting.name), "\(setting.name)")
            let fromVariable = try await SettingSources(arguments: [], environment: [setting.variable: text]).text(setting)
            #expect(fromVariable?.text == text && fromVariable?.origin == .environment(variable: setting.variable), "\(setting.name)")
            guard let key = setting.fileKey else { continue }
            let file = try configFile("{\"\(key)\": \"\(text)\"}")
            let fromFile = try await SettingSources(arguments: ["--config-file", file], environment: [:]).text(setting)
            #expect(fromFile?.text == text && fromFile?.origin == .file(path: file, key: key), "\(setting.name)")
        }
    }

    /// A bad value of each kind, from each source: the error names the setting, the source, the value and what is
    /// allowed.
    @Test func aBadValueNamesItsSettingItsSourceTheValueAndWhatIsAllowed() async throws {
        let kinds: [(name: String, bad: String, allowed: String)] = [
            ("port", "80a", "a port number (0–65535)"), ("push-lease", "soon", "a duration: seconds"),
            ("max-value-size", "17m", "a size in bytes from 1 to 16m"),
            ("max-connections", "0", "a whole number of connections, at least 1"),
            ("apns-url", "nowhere", "a URL, e.g. https://api.push.apple.com"), ("allow-http", "yes", "1, 0, true or false"),
            (
                "trusted-proxy", "proxy.local",
                "a list of IP addresses or networks, e.g. 10.0.0.0/8,192.0.2.7 (\"proxy.local\" is not an IP address"
            ),
        ]
        for kind in kinds {
            let variable = "PASSMINT_" + kind.name.uppercased().replacingOccurrences(of: "-", with: "_")
            let file = try configFile("{\"\(kind.name)\": \"\(kind.bad)\"}")
            var cases: [([String], [String: String], SettingOrigin)] = [
                ([], [variable: kind.bad], .environment(variable: variable)),
                (["--config-file", file], [:], .file(path: file, key: kind.name)),
            ]
            if kind.name != "allow-http" { cases.append((["--" + kind.name, kind.bad], [:], .commandLine(flag: "--" + kind.name))) }
            for (arguments, environment, origin) in cases {
                let error = await refusal(arguments, environment)
                #expect(error?.setting == kind.name && error?.origin == origin && error?.value == kind.bad, "\(String(describing: error))")
                #expect(
                    error?.message.hasPrefix("setting \(kind.name), from \(origin): \"\(kind.bad)\" is not \(kind.allowed)") == true,
                    "\(String(describing: error))")
            }
        }
    }

    @Test func whatIsNoSettingIsRefused() async throws {
        let refused: [([String], String)] = [
            (["--prot", "80"], "--prot is not an option of passmint serve"), (["8080"], "8080 is not an option of passmint serve"),
            (["--port"], "--port needs a value: a port number (0–65535)"),
            (["--port", "1", "--port=2"], "--port is given twice on the command line"),
            (["--allow-http=yes"], "--allow-http takes no value"),
            (["--config-file", "/nonexistent/serve.json"], "the config file /nonexistent/serve.json (from --config-file) cannot be read"),
            (["--config-file", try configFile("[1]")], "cannot be read as a JSON object of settings"),
            (["--config-file", try configFile("{\"prot\": 80}")], "has the key \"prot\", which is no setting of passmint serve"),
            (["--config-file", try configFile("{\"config-file\": \"other.json\"}")], "has the key \"config-file\", which is no setting"),
            (["--config-file", try configFile("{\"apns\": {\"key\": \"k.p8\"}}")], "has the key \"apns\", which is no setting"),
            (["--config-file", try configFile("{\"port\": {\"value\": 80}}")], "setting port, from key \"port\" of"),
        ]
        for (arguments, message) in refused {
            let error = await refusal(arguments)
            #expect(error?.message.contains(message) == true, "\(arguments): \(String(describing: error))")
        }
    }

    /// The table in docs/configuration.md is the one the declarations make; on a difference this prints the table to
    /// paste between its markers.
    @Test func theDocsTableIsTheDeclarations() throws {
        let docs = try String(contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let begin = "<!-- settings table: made by ServeSettings.markdownTable, checked by ServeSettingsTests -->\n"
        let end = "<!-- end of settings table -->"
        let table = docs.components(separatedBy: begin).dropFirst().first?.components(separatedBy: end).first
        #expect(
            table == ServeSettings.markdownTable, "docs/configuration.md should hold, between its markers:\n\(ServeSettings.markdownTable)")
    }
}
