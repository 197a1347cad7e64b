import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// What `passmint serve` checks and says at start-up: its templates listed with their pass types, expired
/// certificates refused, a port in use named with the option that changes it.
@Suite(.serialized, .offPool) struct ServeStartUpTests {
    func arguments(_ folder: URL, chain: URL, apns: MockAPNsServer) -> [String] {
        [
            "serve", "--public-url", "https://passes.example.test/wallet", "--database-url", folder.appendingPathComponent("s.sqlite").path,
            "--certificates", chain.path, "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path,
            "--apns-url", apns.url.absoluteString, "--apns-ca", folder.appendingPathComponent("apns-server.pem").path,
        ]
    }

    @Test func templatesAreListedAndASecondServiceOnThePortIsToldWhichPortAndOption() throws {
        let folder = TestEnvironment.temporaryFolder("serve-start")
        let chain = try TestEnvironment.devChain()
        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder)
        defer { apns.shutdown() }
        let server = try ServeProcess(arguments: arguments(folder, chain: chain, apns: apns), folder: folder)
        defer { _ = server.stop() }
        #expect(server.waitUntilHealthy(), "\(server.output)")
        #expect(server.output.contains("templates in \(TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path):\n"))
        #expect(server.output.contains("  Loyalty: pass.dev.passmint.example, ok\n"), "\(server.output)")
        let listing = try ServeCommandTests.curl([server.base + "/api/v1/templates", "-H", "Authorization: Bearer \(ServeProcess.apiKey)"])
        let body = try JSONParser.value(Array(listing.stdout.utf8))
        #expect(body["passTypeIdentifiers"] == ["pass.dev.passmint.example"], "\(listing.stdout)")

        var again = arguments(folder, chain: chain, apns: apns)
        again[try #require(again.firstIndex(of: "--database-url")) + 1] = folder.appendingPathComponent("second.sqlite").path
        let second = try ServeProcess(arguments: again + ["--port", String(server.port)], folder: folder, port: server.port)
        second.process.waitUntilExit()
        #expect(second.process.terminationStatus != 0)
        #expect(
            second.output.contains(
                "port \(server.port) on 127.0.0.1 is in use by another program (or another passmint serve): stop it, or give another port with --port (or PASSMINT_PORT)"
            ), "\(second.output)")
    }

    @Test func anExpiredCertificateIsRefusedUnlessAllowed() throws {
        let folder = TestEnvironment.temporaryFolder("serve-expired")
        let chain = try TestEnvironment.devChain(expired: true)
        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder)
        defer { apns.shutdown() }
        let refused = try ServeProcess(arguments: arguments(folder, chain: chain, apns: apns), folder: folder)
        refused.process.waitUntilExit()
        #expect(refused.process.terminationStatus != 0)
        #expect(refused.output.contains("the certificate of pass.dev.passmint.example in "), "\(refused.output)")
        #expect(refused.output.contains("or give --allow-expired to start anyway (tests only)"), "\(refused.output)")
        let allowed = try ServeProcess(arguments: arguments(folder, chain: chain, apns: apns) + ["--allow-expired"], folder: folder)
        defer { _ = allowed.stop() }
        #expect(allowed.waitUntilHealthy(), "\(allowed.output)")
        #expect(allowed.output.contains("warning: the certificate of pass.dev.passmint.example expired on "), "\(allowed.output)")
    }

    @Test func anUnreachableDatabaseFailsNamingHostAndPort() throws {
        let folder = TestEnvironment.temporaryFolder("serve-nodb")
        let chain = try TestEnvironment.devChain()
        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder)
        defer { apns.shutdown() }
        // A port nothing listens on, held by this test so that no other server takes it meanwhile.
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }  // open until the test ends
        let port = refusing.port
        var arguments = arguments(folder, chain: chain, apns: apns)
        let index = try #require(arguments.firstIndex(of: "--database-url"))
        arguments[index + 1] = "postgres://passmint@127.0.0.1:\(port)/passmint?connect_timeout=2"
        arguments += ["--jobs-folder", folder.appendingPathComponent("jobs").path]
        let server = try ServeProcess(arguments: arguments, folder: folder)
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus != 0)
        // SIGTERM while it still waits for the database (a long connect_timeout) stops the start-up.
        arguments[index + 1] = "postgres://passmint@127.0.0.1:\(port)/passmint?connect_timeout=600"
        let waiting = try ServeProcess(arguments: arguments, folder: folder)
        #expect(waiting.waitFor { waiting.output.contains("Connection creation failed") }, "\(waiting.output)")
        waiting.process.terminate()
        waiting.process.waitUntilExit()
        #expect(waiting.process.terminationStatus == 0, "\(waiting.output)")
        #expect(
            waiting.output.contains("stopped before it started: asked to stop (SIGTERM or SIGINT) while the store was out of reach"),
            "\(waiting.output)")
        #expect(
            server.output.contains(
                "cannot reach PostgreSQL at 127.0.0.1:\(port) within 2 s (still waiting for a first answer, SELECT 1): is the server "
                    + "running there, and are the host and port of the database URL right?"
            ), "\(server.output)")
    }

    /// An empty `PASSMINT_DATABASE_URL` (a blank line in an env file, an empty Secret key) once started a node that
    /// answered 201 and kept nothing, SQLite giving each connection a private temporary database (issue 40).
    @Test func anEmptyDatabaseURLIsRefusedAtStart() throws {
        let folder = TestEnvironment.temporaryFolder("serve-emptydb")
        let chain = try TestEnvironment.devChain()
        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder)
        defer { apns.shutdown() }
        var arguments = arguments(folder, chain: chain, apns: apns)
        let index = try #require(arguments.firstIndex(of: "--database-url"))
        arguments.removeSubrange(index...(index + 1))
        for value in ["", "  ", ":memory:"] {
            let server = try ServeProcess(arguments: arguments, folder: folder, environment: ["PASSMINT_DATABASE_URL": value])
            server.process.waitUntilExit()
            #expect(server.process.terminationStatus != 0, "\(value): \(server.output)")
            #expect(server.output.contains("give a SQLite file path or a postgres://"), "\(server.output)")
        }
    }

    /// What an operator reads at start (issue 39): with `--log-format json` every line is one JSON object; the
    /// start-up line names the version, the config file and the database; a mistyped `PASSMINT_*` variable is named
    /// with the one it most likely means.
    @Test func jsonLogsTheStartUpLineAndAMistypedVariable() throws {
        let folder = TestEnvironment.temporaryFolder("serve-logs")
        let chain = try TestEnvironment.devChain()
        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder)
        defer { apns.shutdown() }
        let server = try ServeProcess(
            arguments: arguments(folder, chain: chain, apns: apns) + ["--log-format", "json"], folder: folder,
            environment: ["PASSMINT_DATABSE_URL": "postgres://elsewhere/db", "PASSMINT_TEST_ANYTHING": "1"])
        defer { _ = server.stop() }
        #expect(server.waitUntilHealthy(), "\(server.output)")
        let lines = server.output.split(separator: "\n").filter { $0.hasPrefix("{") }
        let objects = lines.compactMap { try? JSONParser.value(Array($0.utf8)).objectValue }
        #expect(!objects.isEmpty && objects.count == lines.count, "every log line is one JSON object:\n\(server.output)")
        let start = try #require(objects.first { $0["message"] == "passmint serve" }, "\(server.output)")
        #expect(start["version"]?.stringValue == PassmintVersion.current && start["level"] == "info" && start["time"] != nil)
        #expect(start["database"]?.stringValue == folder.appendingPathComponent("s.sqlite").path && start["configFile"] == "none")
        let typo = objects.first { $0["message"]?.stringValue?.hasPrefix("PASSMINT_DATABSE_URL is not a variable") == true }
        #expect(typo?["message"]?.stringValue?.contains("did you mean PASSMINT_DATABASE_URL?") == true, "\(server.output)")
        #expect(typo?["level"] == "warning")
        #expect(!server.output.contains("PASSMINT_TEST_ANYTHING"), "the test suite's variables are left alone")
    }

    @Test func anIssueTheServiceCannotSignAnswers503ForTheOperator() throws {
        let folder = TestEnvironment.temporaryFolder("serve-503")
        let chain = try TestEnvironment.devChain()
        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder)
        defer { apns.shutdown() }
        let templates = folder.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        let loyalty = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.pass")
        try FileManager.default.copyItem(at: loyalty, to: templates.appendingPathComponent("Loyalty.pass"))
        let other = templates.appendingPathComponent("Other.pass")
        try FileManager.default.copyItem(at: loyalty, to: other)
        var json = try JSONParser.value(try FileIO.read(other.appendingPathComponent("pass.json").path, what: "")).objectValue!
        json["passTypeIdentifier"] = "pass.other.example"
        try Data(JSONWriter.data(.object(json))).write(to: other.appendingPathComponent("pass.json"))
        var arguments = arguments(folder, chain: chain, apns: apns)
        arguments[try #require(arguments.firstIndex(of: "--templates")) + 1] = templates.path
        let server = try ServeProcess(arguments: arguments, folder: folder)
        defer { _ = server.stop() }
        #expect(server.waitUntilHealthy(), "\(server.output)")
        #expect(
            server.output.contains(
                "  Other: pass.other.example, cannot issue: no certificate for its pass type pass.other.example (the certificates hold pass.dev.passmint.example)\n"
            ), "\(server.output)")
        let data = try JSONParser.value(
            try FileIO.read(TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.json").path, what: ""))
        let issue = try ServeCommandTests.curl([
            "-w", "\n%{http_code}", "-X", "POST", server.base + "/api/v1/passes", "-H", "Authorization: Bearer \(ServeProcess.apiKey)",
            "-H", "Accept: application/json", "-d", JSONWriter.string(["template": "Other", "data": data], style: .compact),
        ])
        #expect(issue.stdout.hasSuffix("\n503"), "\(issue.stdout)")
        #expect(
            issue.stdout.contains("the service cannot sign this pass; its operator must fix its setup (identity-mismatch): "),
            "\(issue.stdout)")
    }
}
