import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint check-service` as a binary against `passmint serve`, and `serve --self-check`: the same checks, run by
/// the service against itself once it listens, logged.
@Suite(.serialized, .offPool) struct ServeSelfCheckTests {
    static let type = "pass.dev.passmint.example"

    /// A serve process of `ServeStartUpTests`' arguments with `publicURL` and `extra`.
    static func serve(_ folder: URL, publicURL: String, _ extra: [String] = []) throws -> (ServeProcess, MockAPNsServer) {
        let chain = try TestEnvironment.devChain()
        let apns = try MockAPNsServer(clientCA: chain.appendingPathComponent("root.pem"), folder: folder)
        var arguments = ServeStartUpTests().arguments(folder, chain: chain, apns: apns) + extra
        arguments[try #require(arguments.firstIndex(of: "--public-url")) + 1] = publicURL
        return (try ServeProcess(arguments: arguments, folder: folder), apns)
    }

    /// Starts serve with `--self-check` for a pass issued by an earlier start on the same database (which named a pass
    /// that does not exist: the check says so and is not run); the second start's output once the summary line is
    /// written.
    static func selfCheckOutput(_ name: String, publicURL: String, _ extra: [String] = []) throws -> String {
        let folder = TestEnvironment.temporaryFolder(name)
        let serial = "SELF-CHECK-1"
        let (first, firstAPNs) = try serve(folder, publicURL: publicURL, extra + ["--self-check", "\(type)/NEVER-ISSUED"])
        #expect(first.waitUntilHealthy(), "\(first.output)")
        _ = try first.issue(serial: serial)
        #expect(first.waitForOutput("self-check not run: \(type)/NEVER-ISSUED is not in the store"), "\(first.output)")
        first.stop()
        firstAPNs.shutdown()
        let (second, apns) = try serve(folder, publicURL: publicURL, extra + ["--self-check", "\(type)/\(serial)"])
        defer {
            second.stop()
            apns.shutdown()
        }
        #expect(second.waitUntilHealthy(), "\(second.output)")
        #expect(second.waitFor { second.output.contains("self-check passed") || second.output.contains(" FAILED: ") }, "\(second.output)")
        #expect(second.waitUntilHealthy(), "still serving after the self-check")
        return second.output
    }

    @Test func theSelfCheckOfAWellConfiguredServicePasses() throws {
        let output = try Self.selfCheckOutput("serve-self-check", publicURL: "https://passes.example.test/wallet")
        #expect(output.contains("self-check passed: "), "\(output)")
        #expect(output.contains("checks with \(Self.type)/SELF-CHECK-1, every one passed"), "\(output)")
        #expect(!output.contains("self-check failed"), "\(output)")
    }

    /// An http public URL (allowed for development devices) is what Wallet refuses elsewhere: the self-check names it.
    @Test func theSelfCheckNamesAnHTTPPublicURL() throws {
        let output = try Self.selfCheckOutput("serve-self-check-http", publicURL: "http://passes.example.test/wallet", ["--allow-http"])
        let failure = try #require(output.split(separator: "\n").first { $0.contains("self-check failed: url.https: ") }, "\(output)")
        #expect(failure.contains("http://passes.example.test/wallet is not an https URL"), "\(failure)")
        #expect(failure.contains("fix=serve the web service over https and give that URL as --public-url"), "\(failure)")
        let summary = try #require(output.split(separator: "\n").first { $0.contains(" FAILED: ") }, "\(output)")
        #expect(summary.contains("url.https"), "\(summary)")
    }

    /// The binary against a running service: a downloaded pass checked at the local port exits 0; `--json` is one
    /// object with every check, and the exit status is 1 when a check fails (http without `--allow-http`); `--repeat 3`
    /// prints each read-only call's p50 and p99.
    @Test func theBinaryChecksARunningService() throws {
        let folder = TestEnvironment.temporaryFolder("check-service-binary")
        let (server, apns) = try Self.serve(folder, publicURL: "https://passes.example.test/wallet")
        defer {
            server.stop()
            apns.shutdown()
        }
        #expect(server.waitUntilHealthy(), "\(server.output)")
        let token = try server.issue(serial: "CHECK-1")
        let pass = folder.appendingPathComponent("check.pkpass")
        let download = try ServeCommandTests.curl([
            "-f", "-o", pass.path, server.base + "/wallet/v1/passes/\(Self.type)/CHECK-1", "-H", "Authorization: ApplePass \(token)",
        ])
        #expect(download.status == 0, "\(download.stderr)")
        let arguments = ["check-service", pass.path, "--service-url", server.base + "/wallet", "--allow-http"]
        let json = try TestEnvironment.run(CreateCommandTests.binary, arguments + ["--json"])
        #expect(json.status == 0, "\(json.stdout)\(json.stderr)")
        let report = try JSONParser.value(Array(json.stdout.utf8))
        #expect(report["passed"] == true && report["identifier"] == "CHECK-1", "\(json.stdout)")
        let checks = report["checks"]?.arrayValue ?? []
        #expect(checks.contains { $0["id"] == "latest.verifies" && $0["status"] == "passed" }, "\(json.stdout)")
        // A failing check: exit status 1, and `passed` false with the failed check in the JSON.
        let refused = try TestEnvironment.run(CreateCommandTests.binary, Array(arguments.dropLast()) + ["--json"])
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        let refusedReport = try JSONParser.value(Array(refused.stdout.utf8))
        #expect(refusedReport["passed"] == false, "\(refused.stdout)")
        #expect(
            (refusedReport["checks"]?.arrayValue ?? []).contains { $0["id"] == "url.https" && $0["status"] == "failed" },
            "\(refused.stdout)")
        let timed = try TestEnvironment.run(CreateCommandTests.binary, arguments + ["--repeat", "3"])
        #expect(timed.status == 0, "\(timed.stdout)\(timed.stderr)")
        // The 304 is asked only by the repeated call (the poll is also asked by other checks).
        let notModified = try #require(timed.stdout.split(separator: "\n").first { $0.hasPrefix("latest 304: ") }, "\(timed.stdout)")
        #expect(notModified.contains("3 call(s), p50 ") && notModified.contains(" ms, p99 "), "\(notModified)")
        #expect(timed.stdout.hasSuffix("every check passed\n"), "\(timed.stdout)")
    }
}
