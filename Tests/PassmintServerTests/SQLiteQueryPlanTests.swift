import Foundation
import PassmintTestSupport
import Testing

@testable import PassmintStore

/// The SQLite store's hot queries use the indexes meant for them, whatever the data.
@Suite struct SQLiteQueryPlanTests {
    /// The plan of `query` with `values` in a migrated store's file.
    static func plan(_ query: String, _ values: [SQLiteConnection.Value]) async throws -> [String] {
        let path = TestEnvironment.temporaryFolder("plan").appendingPathComponent("passmint.sqlite").path
        let store = try SQLitePassStore(path: path)
        try await store.migrate()
        let connection = try SQLiteConnection(path: path, readOnly: true)
        var plan: [String] = []
        try connection.query("EXPLAIN QUERY PLAN " + query, values) { plan.append($0.text(3) ?? "") }
        return plan
    }

    @Test func thePollStartsFromTheDevicesRegistrations() async throws {
        let plan = try await Self.plan(SQLitePassStore.updatedSerialsQuery, [.text("device"), .text("pass.example"), .integer(-1)])
        // Starting from the passes (by pass type and tag) would read every pass of the type for each poll.
        #expect(plan.first?.hasPrefix("SEARCH r USING COVERING INDEX") == true, "\(plan)")
        #expect(plan.contains { $0.hasPrefix("SEARCH p USING INDEX sqlite_autoindex_passes_1") }, "\(plan)")
    }

    @Test func aWebhookClaimWalksOnlyTheOwedDeliveries() async throws {
        let plan = try await Self.plan(SQLitePassStore.claimWebhookDeliveriesQuery, [.integer(1), .integer(1), .integer(1), .integer(100)])
        // Walking the table by id would pass every delivered row kept since the last prune, at each claim (a backlog of
        // 100,000 made a delivery cost 110 µs of CPU instead of 35).
        #expect(plan.contains("SCAN d USING INDEX webhook_deliveries_owed_by_id"), "\(plan)")
        #expect(plan.contains { $0.hasPrefix("SEARCH e USING INDEX webhook_deliveries_by_pass") }, "\(plan)")
    }
}
