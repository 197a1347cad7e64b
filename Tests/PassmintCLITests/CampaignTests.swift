import Foundation
import PassmintTestSupport
import Testing

/// The campaign benchmark's driver at a small scale, as a test: one bulk update of 600 passes (360 devices), the
/// job's node killed with SIGKILL while pushes are in flight (the mock APNs answers after 300 ms) and started again;
/// every device must still be pushed after its change, and nothing left owed. SQLite with one node, PostgreSQL with
/// two draining one queue.
@Suite(.offPool) struct CampaignTests {
    static var driver: String {
        URL(fileURLWithPath: CreateCommandTests.binary).deletingLastPathComponent().appendingPathComponent("PassmintCampaign").path
    }

    @Test(arguments: TestEnvironment.storeBackends)
    func aCampaignKilledInTheMiddleLosesNoPush(_ store: String) throws {
        let database = store == "sqlite" ? "sqlite" : try TestEnvironment.freshPostgresURL()
        let run = try TestEnvironment.run(
            Self.driver,
            [
                "--binary", CreateCommandTests.binary, "--database", database, "--nodes", store == "sqlite" ? "1" : "2", "--single", "300",
                "--shared", "60", "--kill", "1", "--apns-delay-ms", "300", "--ceiling-tokens", "200",
            ])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr.suffix(3000))")
        #expect(run.stdout.contains("kill -9 of the job's node"), "the node was killed: \(run.stdout)")
        #expect(run.stdout.contains("600 passes, 360 devices"), "\(run.stdout)")
        #expect(run.stdout.contains("pushes lost           0 "), "\(run.stdout)")
        #expect(run.stdout.contains("owed left in the store: 0"), "\(run.stdout)")
    }
}
