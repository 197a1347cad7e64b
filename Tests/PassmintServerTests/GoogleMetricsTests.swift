import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Passmint
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Testing

/// `GET /metrics` shows the Google update queue beside the push queue: updates by outcome (inserted, patched, failed),
/// those retried after a failure, and the outbox (owed, due now, the oldest's wait).
@Suite struct GoogleMetricsTests {
    /// The figures of one scrape, by series and labels (`name{labels}`).
    static func scrape(_ client: some ServiceClient) async throws -> [String: Double] {
        let bearer: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)"]
        let response = try await client.execute(uri: "/metrics", method: .get, headers: bearer)
        #expect(response.status == .ok)
        var figures: [String: Double] = [:]
        for line in String(buffer: response.body).split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            figures[String(line[..<space])] = value
        }
        return figures
    }

    static func updates(_ result: String) -> String { "passmint_google_updates_total{result=\"\(result)\"}" }

    @Test(arguments: StoreKind.allCases)
    func theScrapeCountsGoogleUpdatesAndShowsTheOutbox(_ kind: StoreKind) async throws {
        try await GoogleOutboxTests.withHarness(kind) { harness, store in
            try await harness.withCore(on: store) { core in
                try await buildApplication(core: core, logger: .init(label: "google")).serviceTest(.router) { client in
                    // The application runs the queue's worker too: `drain` also waits for the rounds it claimed.
                    let queue = try #require(core.googleUpdates)
                    let serial = try await GoogleOutboxTests.issueLinked(core)
                    var figures = try await Self.scrape(client)
                    #expect(figures["passmint_google_update_queue_depth"] == 0, "\(figures)")
                    #expect(figures[Self.updates("patched")] == 0 && figures[Self.updates("failed")] == 0)

                    // Google refuses once: counted as failed, owed but not due until its back-off ends (the clock
                    // stands still).
                    harness.standIn.failNext([.init(status: 403)])
                    try await GoogleOutboxTests.setPoints(core, serial, 761_001)
                    try await queue.drain()
                    figures = try await Self.scrape(client)
                    #expect(figures[Self.updates("failed")] == 1, "\(figures)")
                    #expect(figures[Self.updates("patched")] == 0)
                    #expect(figures["passmint_google_update_queue_depth"] == 1 && figures["passmint_google_update_queue_due"] == 0)
                    #expect((figures["passmint_google_update_queue_oldest_seconds"] ?? -1) >= 0)

                    // After the back-off the retry patches it.
                    harness.clock.advance(by: .seconds(2))
                    try await queue.drain()
                    figures = try await Self.scrape(client)
                    #expect(figures[Self.updates("patched")] == 1, "\(figures)")
                    #expect(figures["passmint_google_update_retries_total"] == 1)
                    #expect(figures["passmint_google_update_queue_depth"] == 0 && figures["passmint_google_update_queue_due"] == 0)

                    // A pass noted as held by Google from a version older than its last change, whose object Google
                    // lacks: the update inserts it.
                    let other = unique("METRICS")
                    let issued = try await core.issuing.issue(template: "Loyalty", data: try ServiceHarness.loyaltyData(serial: other))
                    try await GoogleOutboxTests.setPoints(core, other, 761_002)
                    try await store.noteGoogleObject(
                        passTypeIdentifier: ServiceHarness.passType, serialNumber: other,
                        objectID: "\(GoogleServeHarness.issuerID).\(ServiceHarness.passType).\(other)", updateTag: issued.pass.updateTag)
                    try await queue.drain()
                    figures = try await Self.scrape(client)
                    #expect(figures[Self.updates("inserted")] == 1, "\(figures)")
                    #expect(figures[Self.updates("patched")] == 1 && figures[Self.updates("failed")] == 1)
                    #expect(figures["passmint_google_update_queue_depth"] == 0)
                }
            }
        }
    }
}
