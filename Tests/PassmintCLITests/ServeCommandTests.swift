import Foundation
import Passmint
import PassmintTestSupport
import Testing

/// `passmint serve` as an operator starts it, talking to a mock APNs server over HTTP/2 + TLS.
@Suite struct ServeCommandTests {
    static func curl(_ arguments: [String]) throws -> TestEnvironment.ProcessResult {
        try TestEnvironment.run("curl", ["-s", "--max-time", "20"] + arguments)
    }

    @Test func servesWithAProviderTokenKeyAndPushesWithIt() throws {
        let folder = TestEnvironment.temporaryFolder("serve")
        let key = folder.appendingPathComponent("AuthKey_KEY1234567.p8")
        let publicKey = folder.appendingPathComponent("public.pem")
        #expect(try TestEnvironment.run("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key.path]).status == 0)
        #expect(try TestEnvironment.run("openssl", ["pkey", "-in", key.path, "-pubout", "-out", publicKey.path]).status == 0)
        let chain = try TestEnvironment.devChain()
        // The team defaults to the certificate's (DEVTEAM123); the key id comes from the file name.
        let verifier = try ProviderTokenVerifier(publicKeyPEM: publicKey, keyIdentifier: "KEY1234567", teamIdentifier: "DEVTEAM123")
        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder, providerTokens: verifier)
        defer { apns.shutdown() }

        let port = Int.random(in: 30_000..<60_000)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CreateCommandTests.binary)
        process.arguments = [
            "serve", "--port", String(port), "--public-url", "https://passes.example.test/wallet", "--database-url", folder.appendingPathComponent("p.sqlite").path,
            "--certificates", chain.path, "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path,
            "--apns-url", apns.url.absoluteString, "--apns-ca", folder.appendingPathComponent("apns-server.pem").path, "--apns-key", key.path,
        ]
        process.environment = ProcessInfo.processInfo.environment.merging(["PASSMINT_API_KEY": "serve-test-key-0123456789", "LOG_LEVEL": "warning"]) { $1 }
        let log = folder.appendingPathComponent("serve.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = process.standardOutput
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let base = "http://127.0.0.1:\(port)"
        var healthy = false
        for _ in 0..<200 where !healthy {
            healthy = (try? Self.curl(["-f", base + "/health"]))?.stdout == "ok\n"
            if !healthy { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(healthy, "the service did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")

        var data = try JSONParser.value(try FileIO.read(TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.json").path, what: "")).objectValue!
        data["serialNumber"] = "SERVE-1"
        let issue = try Self.curl([
            "-X", "POST", base + "/api/v1/passes", "-H", "Authorization: Bearer serve-test-key-0123456789", "-H", "Accept: application/json",
            "-d", JSONWriter.string(["template": "Loyalty", "data": .object(data)], style: .compact),
        ])
        let token = try #require(try JSONParser.value(Array(issue.stdout.utf8))["authenticationToken"]?.stringValue, "\(issue.stdout)")
        let device = String(repeating: "ab", count: 32)
        let register = try Self.curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", base + "/wallet/v1/devices/dev1/registrations/pass.dev.passmint.example/SERVE-1",
            "-H", "Authorization: ApplePass \(token)", "-d", #"{"pushToken":"\#(device)"}"#,
        ])
        #expect(register.stdout == "201")
        let update = try Self.curl([
            "-X", "PATCH", base + "/api/v1/passes/pass.dev.passmint.example/SERVE-1", "-H", "Authorization: Bearer serve-test-key-0123456789",
            "-d", #"{"data":{"points":99}}"#,
        ])
        #expect(try JSONParser.value(Array(update.stdout.utf8))["push"]?["delivered"] == 1, "\(update.stdout)")
        let received = apns.received
        #expect(received.map(\.token) == [device])
        #expect(received.first?.authorization?.hasPrefix("bearer ") == true)
        #expect(received.first?.clientCertificateSubject == nil)
    }
}
