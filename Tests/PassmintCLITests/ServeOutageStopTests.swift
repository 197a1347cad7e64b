import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `passmint serve` on PostgreSQL behind a relay the test cuts (a database outage): SIGTERM still stops it, at once,
/// instead of leaving it waiting for the database (issue 39: it kept running for a minute or more).
@Suite(.offPool) struct ServeOutageStopTests {
    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests))
    func sigtermStopsTheNodeWhileTheDatabaseIsDown() async throws {
        let folder = TestEnvironment.temporaryFolder("outage-stop")
        let chain = try TestEnvironment.devChain()
        var components = try #require(URLComponents(string: try TestEnvironment.freshPostgresURL()))
        let relay = try await TCPRelay(port: try #require(components.port))
        components.port = relay.port
        let server = try ServeProcess(
            arguments: [
                "serve", "--public-url", "https://passes.example.test/wallet", "--database-url", try #require(components.string),
                "--certificates", chain.path, "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path,
            ],
            // Debug lines name each service as it stops (ServiceLifecycle): a stop that hangs says which one held it.
            folder: folder, environment: ["LOG_LEVEL": "debug"])
        defer { server.kill() }
        #expect(server.waitUntilHealthy(), "\(server.output)")
        // Something in the push outbox and a job's worth of work would keep a node busy at shutdown.
        let serial = "STOP-\(UUID().uuidString.prefix(8))"
        _ = try server.register(
            serial: serial, token: try server.issue(serial: serial), pushToken: String(repeating: "ab", count: 32), device: "d")

        relay.cut()
        #expect(server.waitForOutput("store out of reach"), "\(server.output)")
        let asked = Date()
        let status = server.stop(within: TestEvents.bound / 2)
        let took = Date().timeIntervalSince(asked)
        let lines = server.output.split(separator: "\n").filter { !$0.contains("[PostgresNIO]") }.joined(separator: "\n")
        #expect(status == 0, "stopped with \(status.map(String.init) ?? "no exit: killed after a minute"): \(lines)")
        #expect(server.output.contains("passmint serve stopped"), "\(server.output)")
        // Before the fix the push queue's round waited in the pool until the pool gave up, a minute into the outage.
        #expect(!server.output.contains("CircuitBreakerTripped"), "it waited for the pool to give up: \(server.output)")
        print("serve stopped \(String(format: "%.1f", took)) s after SIGTERM with the database out of reach")
        await relay.shutdown()
    }
}
