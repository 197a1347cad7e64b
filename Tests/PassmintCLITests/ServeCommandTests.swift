import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint serve` as an operator starts it, talking to a mock APNs server over HTTP/2 + TLS.
@Suite(.offPool) struct ServeCommandTests {
    static func curl(_ arguments: [String]) throws -> TestEnvironment.ProcessResult {
        try TestEnvironment.run("curl", ["-s", "--max-time", "20"] + arguments)
    }

    @Test func servesWithAProviderTokenKeyAndPushesWithIt() throws {
        let folder = TestEnvironment.temporaryFolder("serve")
        let key = folder.appendingPathComponent("AuthKey_KEY1234567.p8")
        let publicKey = folder.appendingPathComponent("public.pem")
        #expect(
            try TestEnvironment.run("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key.path])
                .status == 0)
        #expect(try TestEnvironment.run("openssl", ["pkey", "-in", key.path, "-pubout", "-out", publicKey.path]).status == 0)
        let chain = try TestEnvironment.devChain()
        // The team defaults to the certificate's (DEVTEAM123); the key id comes from the file name.
        let verifier = try ProviderTokenVerifier(publicKeyPEM: publicKey, keyIdentifier: "KEY1234567", teamIdentifier: "DEVTEAM123")
        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder, providerTokens: verifier)
        defer { apns.shutdown() }

        let server = try ServeProcess(
            arguments: [
                "serve", "--public-url", "https://passes.example.test/wallet", "--database-url",
                folder.appendingPathComponent("p.sqlite").path,
                "--certificates", chain.path, "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path,
                "--apns-url", apns.url.absoluteString, "--apns-ca", folder.appendingPathComponent("apns-server.pem").path, "--apns-key",
                key.path,
            ], folder: folder)
        defer { server.stop() }
        #expect(server.waitUntilHealthy(), "the service did not start: \(server.output)")

        let token = try server.issue(serial: "SERVE-1")
        let device = String(repeating: "ab", count: 32)
        #expect(try server.register(serial: "SERVE-1", token: token, pushToken: device) == "201")
        let update = try Self.curl([
            "-X", "PATCH", server.base + "/api/v1/passes/pass.dev.passmint.example/SERVE-1", "-H",
            "Authorization: Bearer \(ServeProcess.apiKey)",
            "-d", #"{"data":{"points":99}}"#,
        ])
        // The PATCH answers once the change (and the push it owes) committed; the push goes out in the background.
        #expect(try JSONParser.value(Array(update.stdout.utf8))["push"]?["queued"] == 1, "\(update.stdout)")
        #expect(server.waitFor { apns.received.count == 1 }, "the owed push went out")
        #expect(server.waitForOutput("push round"), "the pusher settled its round: \(server.output)")
        #expect(try server.pushes(serial: "SERVE-1")["delivered"] == 1, "the outcome is in the pass's metadata")
        let received = apns.received
        #expect(received.map(\.token) == [device])
        #expect(received.first?.authorization?.hasPrefix("bearer ") == true)
        #expect(received.first?.clientCertificateSubject == nil)
    }

    @Test func configuredFromTheEnvironmentItFinishesThePushInFlightOnSIGTERM() throws {
        let folder = TestEnvironment.temporaryFolder("serve-env")
        let chain = try TestEnvironment.devChain()
        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder)
        defer { apns.shutdown() }
        apns.setResponseDelay(.seconds(2))  // the PATCH's push is in flight when SIGTERM comes
        let environment = [
            "PASSMINT_PUBLIC_URL": "https://passes.example.test/wallet",
            "PASSMINT_DATABASE_URL": folder.appendingPathComponent("env.sqlite").path,
            "PASSMINT_CERTIFICATES": chain.path,
            "PASSMINT_TEMPLATES": TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path,
            "PASSMINT_APNS_URL": apns.url.absoluteString, "PASSMINT_APNS_CA": folder.appendingPathComponent("apns-server.pem").path,
        ]
        let server = try ServeProcess(arguments: ["serve"], folder: folder, environment: environment)
        #expect(server.waitUntilHealthy(), "\(server.output)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("env.sqlite").path), "PASSMINT_DATABASE_URL is used")

        let token = try server.issue(serial: "ENV-1")
        let device = String(repeating: "cd", count: 32)
        #expect(try server.register(serial: "ENV-1", token: token, pushToken: device) == "201")
        let patch = try server.patch(serial: "ENV-1", data: #"{"points":7}"#)
        #expect(patch.hasSuffix("\n200") && patch.contains(#""queued":1"#), "answered without waiting for APNs: \(patch)")
        #expect(server.waitFor { apns.inFlight == 1 }, "the PATCH's push reached APNs")

        let status = server.stop()  // SIGTERM while the push waits for APNs
        #expect(status == 0, "a clean exit after SIGTERM: \(server.output)")
        #expect(server.output.contains("passmint serve stopped"))
        #expect(apns.received.map(\.token) == [device])

        // The push finished before the exit was settled: a restarted service owes nothing and sends nothing again.
        let again = try ServeProcess(arguments: ["serve"], folder: folder, environment: environment)
        defer { again.stop() }
        #expect(again.waitUntilHealthy(), "\(again.output)")
        let pushes = try again.pushes(serial: "ENV-1")
        #expect(pushes["pending"] == 0 && pushes["delivered"] == 1, "\(pushes)")
        #expect(again.stop() == 0)  // after its push queue's last round, which sends whatever is still due
        #expect(apns.received.count == 1, "nothing sent twice")
    }

    /// kill -9 while a push waits for APNs: the restarted service (once the dead node's lease has passed) sends it.
    @Test(arguments: TestEnvironment.storeBackends)
    func aPushOwedWhenKilledIsDeliveredAfterARestart(_ backend: String) throws {
        let folder = TestEnvironment.temporaryFolder("serve-kill-push")
        let chain = try TestEnvironment.devChain()
        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder)
        defer { apns.shutdown() }
        apns.setResponseDelay(.seconds(60))
        let database = backend == "sqlite" ? folder.appendingPathComponent("owed.sqlite").path : try TestEnvironment.freshPostgresURL()
        let arguments = [
            "serve", "--public-url", "https://passes.example.test/wallet", "--database-url", database, "--certificates", chain.path,
            "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path, "--apns-url",
            apns.url.absoluteString, "--apns-ca", folder.appendingPathComponent("apns-server.pem").path, "--push-lease", "2s",
        ]
        let first = try ServeProcess(arguments: arguments, folder: folder)
        #expect(first.waitUntilHealthy(), "\(first.output)")
        let serial = "OWED-\(UUID().uuidString.prefix(8))"
        let device = String(repeating: "9a", count: 32)
        #expect(try first.register(serial: serial, token: try first.issue(serial: serial), pushToken: device) == "201")
        #expect(try first.patch(serial: serial, data: #"{"points":1234}"#).hasSuffix("\n200"))
        #expect(first.waitFor { apns.inFlight == 1 }, "the push was on its way")
        first.kill()  // SIGKILL: the push was never answered, so it is still owed

        apns.setResponseDelay(.zero)
        let second = try ServeProcess(arguments: arguments, folder: folder)
        defer { second.stop() }
        #expect(second.waitUntilHealthy(), "\(second.output)")
        #expect(second.waitFor { apns.received.count == 2 }, "the owed push went out after the restart: \(second.output)")
        #expect(apns.received.map(\.token) == [device, device])
        #expect(second.waitForOutput("push round"), "the pusher settled its round: \(second.output)")
        #expect(try second.pushes(serial: serial)["pending"] == 0)
    }

    @Test func withPort0EachServiceTakesAFreePortAndPrintsItOnOneLine() throws {
        let folder = TestEnvironment.temporaryFolder("serve-port")
        let servers = try (1...2).map { index in
            try ServeProcess(
                arguments: [
                    "serve", "--port", "0", "--public-url", "https://passes.example.test/wallet", "--database-url",
                    folder.appendingPathComponent("\(index).sqlite").path, "--certificates", try TestEnvironment.devChain().path,
                    "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path,
                ], folder: folder)
        }
        defer { for server in servers { server.stop() } }
        for server in servers {
            #expect(server.waitUntilHealthy(), "\(server.output)")
            let lines = server.output.split(separator: "\n").filter { $0.hasPrefix("listening on ") }
            #expect(lines == ["listening on http://127.0.0.1:\(server.port)"], "\(server.output)")
        }
        #expect(servers[0].port > 0 && servers[0].port != servers[1].port)
    }

    @Test func anHTTPPublicURLIsRefusedAtStartUpUnlessAllowed() throws {
        let folder = TestEnvironment.temporaryFolder("serve-http")
        let chain = try TestEnvironment.devChain()
        let arguments = [
            "serve", "--public-url", "http://192.168.1.20:8080/wallet", "--database-url", folder.appendingPathComponent("h.sqlite").path,
            "--certificates", chain.path, "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path,
        ]
        let refused = try TestEnvironment.run(
            CreateCommandTests.binary, arguments, environment: ["PASSMINT_API_KEY": ServeProcess.apiKey], in: folder)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--allow-http") && refused.stderr.contains("https"), "\(refused.stderr)")

        // With --allow-http the service starts and issues passes carrying the http webServiceURL.
        let server = try ServeProcess(arguments: arguments + ["--allow-http"], folder: folder)
        defer { server.stop() }
        #expect(server.waitUntilHealthy(), "\(server.output)")
        let pass = folder.appendingPathComponent("http.pkpass")
        var data = try JSONParser.value(
            try FileIO.read(TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.json").path, what: "")
        )
        .objectValue!
        data["serialNumber"] = "HTTP-1"
        let issued = try ServeCommandTests.curl([
            "-o", pass.path, "-w", "%{http_code}", "-X", "POST", server.base + "/api/v1/passes", "-H",
            "Authorization: Bearer \(ServeProcess.apiKey)",
            "-d", JSONWriter.string(["template": "Loyalty", "data": .object(data)], style: .compact),
        ])
        #expect(issued.stdout == "201", "\(issued.stdout) \((try? String(contentsOf: pass, encoding: .utf8)) ?? "")")
        let entries = try ZipArchive.read(try FileIO.read(pass.path, what: "pass"), source: "http.pkpass")
        let json = try JSONParser.value(try #require(entries.first { $0.name == "pass.json" }).bytes)
        #expect(json["webServiceURL"]?.stringValue == "http://192.168.1.20:8080/wallet")
    }

    @Test(arguments: TestEnvironment.storeBackends)
    func aRegistrationAnswered201SurvivesAKill(_ backend: String) throws {
        let folder = TestEnvironment.temporaryFolder("serve-kill")
        let chain = try TestEnvironment.devChain()
        let database = backend == "sqlite" ? folder.appendingPathComponent("kill.sqlite").path : try TestEnvironment.postgresURL()
        let arguments = [
            "serve", "--public-url", "https://passes.example.test/wallet", "--database-url", database, "--certificates", chain.path,
            "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path,
        ]
        let serial = "KILL-\(UUID().uuidString.prefix(8))"
        let device = "dev-\(UUID().uuidString.prefix(8))"
        let first = try ServeProcess(arguments: arguments, folder: folder)
        #expect(first.waitUntilHealthy(), "\(first.output)")
        let token = try first.issue(serial: serial)
        #expect(try first.register(serial: serial, token: token, pushToken: String(repeating: "ef", count: 32), device: device) == "201")
        first.kill()  // SIGKILL right after the 201: nothing flushed on the way out

        let second = try ServeProcess(arguments: arguments, folder: folder)
        defer { second.stop() }
        #expect(second.waitUntilHealthy(), "\(second.output)")
        let metadata = try ServeCommandTests.curl([
            second.base + "/api/v1/passes/pass.dev.passmint.example/\(serial)", "-H", "Authorization: Bearer \(ServeProcess.apiKey)",
        ])
        #expect(try JSONParser.value(Array(metadata.stdout.utf8))["registrations"] == 1, "\(metadata.stdout)")
        let poll = try ServeCommandTests.curl([second.base + "/wallet/v1/devices/\(device)/registrations/pass.dev.passmint.example"])
        #expect(try JSONParser.value(Array(poll.stdout.utf8))["serialNumbers"] == [.string(serial)], "\(poll.stdout)")
    }
}
