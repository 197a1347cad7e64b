import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintServer
import PassmintStore
import PassmintStorePostgres
import PassmintTestSupport
import Testing

/// A database outage as a node sees it (issue 39): PostgreSQL behind a relay the test cuts, so the node's connections
/// drop and new ones are refused. While it is out, requests that need the store are answered 503 with `Retry-After`
/// at once, `/ready` says so, `/health` and `/metrics` stay 200; when it is back, the node answers again at once, on
/// fresh connections (the pool of the outage would wait out its back-off, up to a minute).
@Suite(.serialized) struct StoreOutageTests {
    /// Its test application then shuts down: a shutdown does not wait for ever for a round (the event pruner's, a
    /// queue's) or a closing client that an outage's dropped connection holds (two fresh-clone CI runs of stop 50 hung
    /// here before the queues' and the client slot's waits were bounded).
    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests))
    func anOutageIsAnswered503WithRetryAfterAndTheNodeRecovers() async throws {
        let fresh = try await PostgresTLSTests.freshURL()
        var components = try #require(URLComponents(string: fresh))
        let relay = try await TCPRelay(port: try #require(components.port))
        components.port = relay.port
        let url = try #require(components.string)
        let opened = try openPassStore(url: url, logger: Logger(label: "test.outage"))
        try await opened.whileRunning { store in
            let core = try ServiceHarness.service(store: store, push: RecordingPushSender())
            let issued = try await core.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: unique("OUT")))
            let uri = "/api/v1/passes/\(issued.pass.passTypeIdentifier)/\(issued.pass.serialNumber)"
            let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)"]
            try await buildApplication(core: core, logger: Logger(label: "outage")).serviceTest(.router) { client in
                #expect(try await client.execute(uri: "/ready", method: .get).status == .ok)
                #expect(try await client.execute(uri: uri, method: .get, headers: bearer).status == .ok)

                relay.cut()
                #expect(await core.reachability.probe() == false, "the probe finds the store out of reach")
                // What the log says of it: the cause, not "Generic description …", and no source path (issue 39).
                do {
                    try await store.ping()
                    Issue.record("the ping fails while the relay is cut")
                } catch {
                    let said = try #require(PostgresPassStore.describe(error))
                    #expect(said.hasPrefix("PostgreSQL ") && !said.contains("Generic description") && !said.contains(".swift"), "\(said)")
                }
                let refused = try await client.execute(uri: uri, method: .get, headers: bearer)
                #expect(refused.status == .serviceUnavailable)
                #expect(refused.headers[.retryAfter] == "1")
                #expect(WebhookSafetyTests.message(refused.body).contains("database is out of reach"), "\(String(buffer: refused.body))")
                let patch = try await client.execute(
                    uri: uri, method: .patch, headers: bearer, body: ByteBuffer(string: #"{"data":{"points":9}}"#))
                #expect(patch.status == .serviceUnavailable, "nothing is half-written while the store is out")
                #expect(try await client.execute(uri: "/ready", method: .get).status == .serviceUnavailable)
                #expect(try await client.execute(uri: "/health", method: .get).status == .ok, "liveness does not need the store")
                let scrape = try await client.execute(uri: "/metrics", method: .get, headers: bearer)
                #expect(scrape.status == .ok, "metrics scrape without the store")
                #expect(String(buffer: scrape.body).contains("passmint_store_reachable 0"))
                #expect(String(buffer: scrape.body).contains("passmint_db_pool_connections_max 16"))
                let poolOfTheOutage = try #require(store as? PostgresPassStore).client

                relay.restore()
                #expect(await eventually { await core.reachability.probe() }, "the store answers again")
                #expect(try await client.execute(uri: "/ready", method: .get).status == .ok)
                #expect(try #require(store as? PostgresPassStore).client !== poolOfTheOutage, "fresh connections at once")
                // The first request after it is served, on the first try.
                let served = try await client.execute(
                    uri: uri, method: .patch, headers: bearer, body: ByteBuffer(string: #"{"data":{"points":10}}"#))
                #expect(served.status == .ok, "\(String(buffer: served.body))")
                let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get, headers: bearer).body)
                #expect(metrics.contains("passmint_store_reachable 1") && metrics.contains("passmint_db_pool_leases_total "))
            }
        }
        await relay.shutdown()
    }
}
