import Foundation
import Logging
import PassmintServer
import PassmintTestSupport
import PostgresNIO
import Testing

@testable import PassmintStore
@testable import PassmintStorePostgres

/// Migration 18 carries a database of the versions that kept orders in tables of their own (`orders`, `order_devices`,
/// `order_registrations`) over to the passes' tables: each order, device and registration is there afterwards, and the
/// order tables are gone.
@Suite struct OrderMigrationTests {
    static let type = "order.dev.passmint.example"

    /// The rows an older version wrote: an order, a device registered for it, and a pass device registered for a pass.
    static let oldRows = [
        """
        INSERT INTO orders (order_type_id, order_id, authentication_token, template, data, update_tag, updated_at)
        VALUES ('\(type)', 'o-1', 'order-token-0123456789', 'Shipment', '{"status":"open"}', 7, 1700000000)
        """,
        "INSERT INTO order_devices (device_library_id, push_token) VALUES ('phone', 'aa11')",
        "INSERT INTO order_registrations (device_library_id, order_type_id, order_id) VALUES ('phone', '\(type)', 'o-1')",
        "UPDATE counters SET value = 7 WHERE name = 'update_tag'",
    ]

    @Test(arguments: StoreKind.allCases)
    func anOrderItsDeviceAndRegistrationMoveToThePassesTables(_ kind: StoreKind) async throws {
        let url = try await offPool { Result { try kind.databaseURL() } }.get()
        let logger = Logger(label: "test.order-migration")
        switch kind {
        case .sqlite:
            let db = try SQLiteConnection(path: url)
            try SQLiteSchema.migrate(db, through: 17)
            for statement in Self.oldRows { try db.execute(statement) }
        case .postgres:
            let client = try PostgresPassStore.client(url: url, logger: logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                try await PostgresSchema.migrate(client, logger: logger, through: 17)
                for statement in Self.oldRows { try await client.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                group.cancelAll()
            }
        }
        try await openPassStore(url: url, logger: logger).whileRunning { store in
            let order = try #require(try await store.pass(passTypeIdentifier: Self.type, serialNumber: "o-1"))
            #expect(order.authenticationToken == "order-token-0123456789" && order.template == "Shipment.order")
            #expect(
                order.dataJSON == #"{"status":"open"}"# && order.updateTag == 7 && order.updatedAt.timeIntervalSince1970 == 1_700_000_000)
            let registrations = try await store.registrations(passTypeIdentifier: Self.type, serialNumber: "o-1")
            #expect(registrations == [DeviceRegistration(deviceLibraryIdentifier: "phone", pushToken: "aa11")])
            let updated = try await store.updatedSerials(deviceLibraryIdentifier: "phone", passTypeIdentifier: Self.type, updatedSince: 6)
            #expect(updated == UpdatedSerials(serialNumbers: ["o-1"], lastUpdated: 7))
            // A change takes the counter's next tag and owes the registered device a push with the order type as topic.
            let change = try #require(
                try await store.change(
                    passTypeIdentifier: Self.type, serialNumber: "o-1", .update(dataJSON: #"{"status":"completed"}"#, voided: nil)))
            #expect(change.changed && change.pass.updateTag > 7)
            let claimed = try await store.claimPushes(limit: 10, lease: .seconds(60))
            #expect(claimed.map(\.pushToken) == ["aa11"] && claimed.map(\.passTypeIdentifier) == [Self.type])
        }
        // The order tables are gone.
        switch kind {
        case .sqlite:
            var tables: [String] = []
            try SQLiteConnection(path: url).query("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'order%'") {
                tables.append($0.text(0) ?? "")
            }
            #expect(tables.isEmpty)
        case .postgres:
            let client = try PostgresPassStore.client(url: url, logger: logger)
            let tables = try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                var names: [String] = []
                let rows = try await client.query(
                    "SELECT table_name::text FROM information_schema.tables WHERE table_name LIKE 'order%'", logger: logger)
                for try await name in rows.decode(String.self) { names.append(name) }
                group.cancelAll()
                return names
            }
            #expect(tables.isEmpty)
        }
    }
}
