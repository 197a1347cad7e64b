import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// `kill -9` of a node while webhook deliveries wait for their receiver: nothing owed is lost. The restarted node
/// (once the dead node's lease has passed) delivers every event; those that were in flight arrive a second time with
/// the same `Passmint-Event-Id`, and a receiver that dedupes by it acknowledges each event once.
@Suite(.offPool) struct WebhookKillTests {
    static let secret = "whsec_kill_0123456789abcdef"

    @Test(arguments: TestEnvironment.storeBackends)
    func deliveriesInFlightWhenKilledAreDeliveredAfterARestart(_ backend: String) throws {
        let folder = TestEnvironment.temporaryFolder("serve-kill-webhooks")
        let chain = try TestEnvironment.devChain()
        let receiver = try WebhookReceiver(secret: Self.secret, now: Date.init)
        defer { receiver.shutdown() }
        receiver.withholdAnswers(true)
        let database = backend == "sqlite" ? folder.appendingPathComponent("hooks.sqlite").path : try TestEnvironment.freshPostgresURL()
        let arguments = [
            "serve", "--public-url", "https://passes.example.test/wallet", "--database-url", database, "--certificates", chain.path,
            "--templates", TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates").path, "--push-lease", "2s",
            "--webhooks-allow-http", "--webhooks-allow-private",
        ]
        let first = try ServeProcess(arguments: arguments, folder: folder)
        #expect(first.waitUntilHealthy(), "\(first.output)")
        let made = try ServeCommandTests.curl([
            "-w", "\n%{http_code}", "-X", "POST", first.base + "/api/v1/webhooks", "-H", "Authorization: Bearer \(ServeProcess.apiKey)",
            "-H", "Content-Type: application/json",
            "-d", #"{"url":"\#(receiver.url)","events":["issued"],"secret":"\#(Self.secret)"}"#,
        ])
        #expect(made.stdout.hasSuffix("\n201"), "\(made.stdout)")
        let serials = (1...12).map { "HOOK-\($0)-\(UUID().uuidString.prefix(6))" }
        for serial in serials { _ = try first.issue(serial: serial) }
        #expect(first.waitFor(seconds: 30) { !receiver.received.isEmpty }, "deliveries were on their way: \(first.output)")
        first.kill()  // SIGKILL while the receiver holds their answers: they are still owed
        let inFlight = Set(receiver.received.map(\.eventId))
        #expect(receiver.acknowledged.isEmpty)
        receiver.withholdAnswers(false)

        let second = try ServeProcess(arguments: arguments, folder: folder)
        defer { second.stop() }
        #expect(second.waitUntilHealthy(), "\(second.output)")
        #expect(
            second.waitFor(seconds: 60) { receiver.acknowledged.count == serials.count },
            "every event delivered: \(receiver.acknowledged.count) of \(serials.count)\n\(second.output)")
        let delivered = receiver.received.filter { $0.status == 200 }
        #expect(Set(delivered.compactMap { $0.json["serialNumber"]?.stringValue }) == Set(serials))
        #expect(delivered.allSatisfy { $0.signatureProblem == nil && $0.json["type"]?.stringValue == "issued" })
        #expect(!inFlight.isEmpty && inFlight.isSubset(of: Set(receiver.acknowledged)), "those in flight were sent again, same ids")
        #expect(receiver.duplicates == 0, "each event acknowledged once")
        #expect(second.stop() == 0)
    }
}
