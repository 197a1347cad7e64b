import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint serve`'s settings as an operator meets them: `--help` lists each with its variable, the command line wins
/// over the environment and the environment over the config file, and a bad value stops the start naming its source.
@Suite(.offPool) struct ServeSettingsCommandTests {
    /// Every setting's flag (with its value) and variable, as serve has always named them.
    static let settings = [
        ("--host <address>", "PASSMINT_HOST"), ("--port <port>", "PASSMINT_PORT"), ("--public-url <url>", "PASSMINT_PUBLIC_URL"),
        ("--database-url <url>", "PASSMINT_DATABASE_URL"), ("--templates <dir>", "PASSMINT_TEMPLATES"),
        ("--apns-url <url>", "PASSMINT_APNS_URL"), ("--apns-ca <file>", "PASSMINT_APNS_CA"), ("--apns-key <file>", "PASSMINT_APNS_KEY"),
        ("--apns-key-id <id>", "PASSMINT_APNS_KEY_ID"), ("--apns-team-id <id>", "PASSMINT_APNS_TEAM_ID"),
        ("--allow-http", "PASSMINT_ALLOW_HTTP"), ("--no-fast-path", "PASSMINT_FAST_PATH"),
        ("--link-lifetime <duration>", "PASSMINT_LINK_LIFETIME"), ("--push-lease <duration>", "PASSMINT_PUSH_LEASE"),
        ("--job-lease <duration>", "PASSMINT_JOB_LEASE"),
        ("--jobs-folder <dir>", "PASSMINT_JOBS_FOLDER"), ("--header-timeout <duration>", "PASSMINT_HEADER_TIMEOUT"),
        ("--idle-timeout <duration>", "PASSMINT_IDLE_TIMEOUT"), ("--body-timeout <duration>", "PASSMINT_BODY_TIMEOUT"),
        ("--max-connections <N>", "PASSMINT_MAX_CONNECTIONS"),
        ("--max-connections-per-address <N>", "PASSMINT_MAX_CONNECTIONS_PER_ADDRESS"),
        ("--trusted-proxy <CIDR>", "PASSMINT_TRUSTED_PROXY"), ("--max-value-size <size>", "PASSMINT_MAX_VALUE_SIZE"),
        ("--job-failures-kept <N>", "PASSMINT_JOB_FAILURES_KEPT"), ("--job-upload-retention <duration>", "PASSMINT_JOB_UPLOAD_RETENTION"),
        ("--jobs-disk-reserve <size>", "PASSMINT_JOBS_DISK_RESERVE"), ("--config-file <file>", "PASSMINT_CONFIG_FILE"),
    ]

    @Test func helpListsEverySettingWithItsVariable() throws {
        let help = try TestEnvironment.run(CreateCommandTests.binary, ["serve", "--help"], in: TestEnvironment.repositoryRoot)
        #expect(help.status == 0)
        // Help wraps long lines at spaces: compare with each run of white space made one space.
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for (flag, variable) in Self.settings {
            #expect(text.contains("\(flag) variable \(variable)"), "serve --help lists \(flag) with \(variable)")
        }
        #expect(text.contains("--certificates <dir>") && text.contains("--api-key-env <VAR>") && text.contains("--allow-expired"))
    }

    @Test func theFlagWinsOverTheVariableAndTheVariableOverTheConfigFile() throws {
        let folder = TestEnvironment.temporaryFolder("serve-settings")
        let templates = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path
        let file = folder.appendingPathComponent("serve.json")
        let database = folder.appendingPathComponent("from-the-file.sqlite")
        // The file's port and templates are not usable: the variable and the flag must win over them.
        try Data(
            #"{"port": "not a port", "templates": "/nonexistent", "database-url": "\#(database.path)", "public-url": "https://passes.example.test/wallet"}"#
                .utf8
        ).write(to: file)
        let server = try ServeProcess(
            arguments: ["serve", "--templates", templates, "--certificates", try TestEnvironment.devChain().path], folder: folder,
            environment: ["PASSMINT_CONFIG_FILE": file.path, "PASSMINT_TEMPLATES": "/also-nonexistent"])
        defer { server.stop() }
        #expect(server.waitUntilHealthy(), "\(server.output)")
        #expect(server.output.contains("templates in \(templates):"), "\(server.output)")
        #expect(FileManager.default.fileExists(atPath: database.path), "the database the file names")
    }

    @Test(
        arguments: [
            (["--port", "80a"], [:], "setting port, from --port: \"80a\" is not a port number (0–65535)"),
            ([], ["PASSMINT_MAX_CONNECTIONS": "0"], "setting max-connections, from PASSMINT_MAX_CONNECTIONS: \"0\" is not a whole number"),
            (["--config-file", "FILE"], [:], "setting idle-timeout, from key \"idle-timeout\" of FILE: \"soon\" is not a duration"),
            (["--prot", "80"], [:], "--prot is not an option of passmint serve"),
        ] as [([String], [String: String], String)])
    func aBadSettingStopsTheStartNamingItsSource(_ arguments: [String], _ environment: [String: String], _ message: String) throws {
        let folder = TestEnvironment.temporaryFolder("serve-bad-setting")
        let file = folder.appendingPathComponent("serve.json").path
        try Data(#"{"idle-timeout": "soon"}"#.utf8).write(to: URL(fileURLWithPath: file))
        let result = try TestEnvironment.run(
            CreateCommandTests.binary,
            ["serve", "--public-url", "https://passes.example.test/wallet"] + arguments.map { $0 == "FILE" ? file : $0 },
            environment: environment, in: folder)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message.replacingOccurrences(of: "FILE", with: file)), "\(result.stderr)")
    }

    /// Secrets as files, as compose and Kubernetes mount them (issue 39): `<VARIABLE>_FILE` gives the variable the
    /// file's text (its final line ending dropped); a variable given both ways or an empty file stops the start.
    @Test func secretsAreReadFromFilesNamedByTheirFileVariables() throws {
        let folder = TestEnvironment.temporaryFolder("serve-secret-files")
        let database = folder.appendingPathComponent("secret.sqlite").path
        try Data((database + "\n").utf8).write(to: folder.appendingPathComponent("database-url"))
        try Data((String(repeating: "s", count: 48) + "\r\n").utf8).write(to: folder.appendingPathComponent("link-secret"))
        try Data().write(to: folder.appendingPathComponent("empty"))
        let arguments = [
            "serve", "--public-url", "https://passes.example.test/wallet", "--certificates", try TestEnvironment.devChain().path,
            "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path,
        ]
        let files = [
            "PASSMINT_DATABASE_URL_FILE": folder.appendingPathComponent("database-url").path,
            "PASSMINT_LINK_SECRET_FILE": folder.appendingPathComponent("link-secret").path,
        ]
        let server = try ServeProcess(arguments: arguments, folder: folder, environment: files)
        defer { server.stop() }
        #expect(server.waitUntilHealthy(), "\(server.output)")
        #expect(FileManager.default.fileExists(atPath: database), "the database the file names")
        #expect(!server.output.contains("no PASSMINT_LINK_SECRET") && !server.output.contains("is not a variable"), "\(server.output)")
        let issued = try server.issue(serial: "FILE-1")
        #expect(!issued.isEmpty)

        var both = files
        both["PASSMINT_LINK_SECRET"] = String(repeating: "t", count: 48)
        let refused = try TestEnvironment.run(CreateCommandTests.binary, arguments, environment: both, in: folder)
        #expect(
            refused.status != 0 && refused.stderr.contains("both PASSMINT_LINK_SECRET and PASSMINT_LINK_SECRET_FILE"), "\(refused.stderr)")
        let empty = try TestEnvironment.run(
            CreateCommandTests.binary, arguments,
            environment: ["PASSMINT_LINK_SECRET_FILE": folder.appendingPathComponent("empty").path], in: folder)
        #expect(empty.status != 0 && empty.stderr.contains("PASSMINT_LINK_SECRET_FILE: the file"), "\(empty.stderr)")
    }
}
