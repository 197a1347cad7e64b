import Foundation
import PassmintTestSupport
import Testing

@testable import PassmintStore

/// The SQLite store's hot queries use the indexes meant for them, whatever the data.
@Suite struct SQLiteQueryPlanTests {
    @Test func thePollStartsFromTheDevicesRegistrations() async throws {
        let path = TestEnvironment.temporaryFolder("plan").appendingPathComponent("passmint.sqlite").path
        let store = try SQLitePassStore(path: path)
        try await store.migrate()
        let connection = try SQLiteConnection(path: path, readOnly: true)
        var plan: [String] = []
        try connection.query(
            "EXPLAIN QUERY PLAN " + SQLitePassStore.updatedSerialsQuery, [.text("device"), .text("pass.example"), .integer(-1)]
        ) {
            plan.append($0.text(3) ?? "")
        }
        // Starting from the passes (by pass type and tag) would read every pass of the type for each poll.
        #expect(plan.first?.hasPrefix("SEARCH r USING COVERING INDEX") == true, "\(plan)")
        #expect(plan.contains { $0.hasPrefix("SEARCH p USING INDEX sqlite_autoindex_passes_1") }, "\(plan)")
    }
}
