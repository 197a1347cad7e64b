import Foundation
import Logging
public import PassmintStore
import PostgresNIO

/// Wallet orders on PostgreSQL: their own tables (``PostgresSchema`` migration 7), the passes' tag counter, and the
/// passes' push outbox (the order type identifier in its type column, the push's topic). A change locks the order's
/// row (`FOR UPDATE`), so two nodes changing one order at once are serialized and the later one sees the earlier.
extension PostgresPassStore: OrderStore {
    typealias OrderRow = (String, String, String, String, String, Int64, Int64)

    static func orderFrom(_ row: OrderRow) -> StoredOrder {
        StoredOrder(
            orderTypeIdentifier: row.0, orderIdentifier: row.1, authenticationToken: row.2, template: row.3, dataJSON: row.4,
            updateTag: row.5, updatedAt: Date(timeIntervalSince1970: TimeInterval(row.6)))
    }

    private static func selectOrder(
        _ connection: PostgresConnection, _ type: String, _ id: String, forUpdate: Bool, _ logger: Logger
    ) async throws -> StoredOrder? {
        let columns = "order_type_id, order_id, authentication_token, template, data, update_tag, updated_at"
        let query: PostgresQuery =
            forUpdate
            ? "SELECT \(unescaped: columns) FROM orders WHERE order_type_id = \(type) AND order_id = \(id) FOR UPDATE"
            : "SELECT \(unescaped: columns) FROM orders WHERE order_type_id = \(type) AND order_id = \(id)"
        for try await row in try await connection.query(query, logger: logger).decode(OrderRow.self) { return orderFrom(row) }
        return nil
    }

    public func insertOrder(_ order: StoredOrder) async throws -> StoredOrder {
        try await write { connection in
            let stored = order.firstVersion(tag: try await Self.nextTag(connection, logger), now: clock())
            let updatedAt = Int64(stored.updatedAt.timeIntervalSince1970)
            let rows = try await connection.query(
                """
                INSERT INTO orders (order_type_id, order_id, authentication_token, template, data, update_tag, updated_at)
                VALUES (\(stored.orderTypeIdentifier), \(stored.orderIdentifier), \(stored.authenticationToken), \(stored.template),
                        \(stored.dataJSON), \(stored.updateTag), \(updatedAt))
                ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger)
            var inserted = false
            for try await _ in rows.decode(Int.self) { inserted = true }
            guard inserted else {
                throw PassStoreError(
                    .duplicate, "an order \(order.orderTypeIdentifier) / \(order.orderIdentifier) already exists; change it instead")
            }
            return stored
        }
    }

    public func order(orderTypeIdentifier: String, orderIdentifier: String) async throws -> StoredOrder? {
        try await client.withConnection { connection in
            try await Self.selectOrder(connection, orderTypeIdentifier, orderIdentifier, forUpdate: false, logger)
        }
    }

    public func changeOrder(
        orderTypeIdentifier: String, orderIdentifier: String, dataJSON: String, basedOn: Int64?
    ) async throws -> OrderChange? {
        try await write { connection in
            let locked = try await Self.selectOrder(connection, orderTypeIdentifier, orderIdentifier, forUpdate: true, logger)
            guard let current = locked else { return nil }
            try current.checkBasedOn(basedOn)
            let registrations = try await Self.orderRegistrations(connection, orderTypeIdentifier, orderIdentifier, logger)
            guard current.dataJSON != dataJSON else { return OrderChange(order: current, changed: false, registrations: registrations) }
            let order = current.nextVersion(dataJSON: dataJSON, tag: try await Self.nextTag(connection, logger), now: clock())
            let updatedAt = Int64(order.updatedAt.timeIntervalSince1970)
            try await connection.query(
                """
                UPDATE orders SET data = \(order.dataJSON), update_tag = \(order.updateTag), updated_at = \(updatedAt)
                WHERE order_type_id = \(orderTypeIdentifier) AND order_id = \(orderIdentifier)
                """, logger: logger)
            try await Self.owePushes(
                connection, tokens: registrations.map(\.pushToken), passTypeIdentifier: orderTypeIdentifier, logger, now: clock())
            return OrderChange(order: order, changed: true, registrations: registrations)
        }
    }

    public func registerOrder(
        deviceLibraryIdentifier: String, pushToken: String, orderTypeIdentifier: String, orderIdentifier: String
    ) async throws -> RegistrationResult {
        try await write(notify: false) { connection in
            try await connection.query(
                """
                INSERT INTO order_devices (device_library_id, push_token) VALUES (\(deviceLibraryIdentifier), \(pushToken))
                ON CONFLICT (device_library_id) DO UPDATE SET push_token = excluded.push_token
                WHERE order_devices.push_token <> excluded.push_token
                """, logger: logger)
            let rows = try await connection.query(
                """
                INSERT INTO order_registrations (device_library_id, order_type_id, order_id)
                VALUES (\(deviceLibraryIdentifier), \(orderTypeIdentifier), \(orderIdentifier)) ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger)
            var created = false
            for try await _ in rows.decode(Int.self) { created = true }
            return created ? .created : .alreadyRegistered
        }
    }

    public func unregisterOrder(deviceLibraryIdentifier: String, orderTypeIdentifier: String, orderIdentifier: String) async throws -> Bool
    {
        try await write(notify: false) { connection in
            let rows = try await connection.query(
                """
                DELETE FROM order_registrations WHERE device_library_id = \(deviceLibraryIdentifier)
                AND order_type_id = \(orderTypeIdentifier) AND order_id = \(orderIdentifier) RETURNING 1
                """, logger: logger)
            var removed = false
            for try await _ in rows.decode(Int.self) { removed = true }
            try await connection.query(
                """
                DELETE FROM order_devices WHERE device_library_id = \(deviceLibraryIdentifier)
                AND NOT EXISTS (SELECT 1 FROM order_registrations WHERE device_library_id = \(deviceLibraryIdentifier))
                """, logger: logger)
            return removed
        }
    }

    public func updatedOrders(
        deviceLibraryIdentifier: String, orderTypeIdentifier: String, updatedSince: Int64?
    ) async throws -> UpdatedOrders {
        let since = updatedSince ?? -1
        let rows = try await clients.query(
            """
            SELECT o.order_id, o.update_tag, \(unescaped: Self.settledTagSQL) FROM order_registrations r
            JOIN orders o ON o.order_type_id = r.order_type_id AND o.order_id = r.order_id
            WHERE r.device_library_id = \(deviceLibraryIdentifier) AND r.order_type_id = \(orderTypeIdentifier) AND o.update_tag > \(since)
            ORDER BY o.update_tag
            """, logger: logger)
        let polled = try await Self.polled(rows, since: updatedSince)
        return UpdatedOrders(orderIdentifiers: polled.identifiers, lastUpdated: polled.lastUpdated)
    }

    public func orderRegistrations(orderTypeIdentifier: String, orderIdentifier: String) async throws -> [DeviceRegistration] {
        try await client.withConnection { connection in
            try await Self.orderRegistrations(connection, orderTypeIdentifier, orderIdentifier, logger)
        }
    }

    private static func orderRegistrations(
        _ connection: PostgresConnection, _ type: String, _ id: String, _ logger: Logger
    ) async throws -> [DeviceRegistration] {
        let rows = try await connection.query(
            """
            SELECT d.device_library_id, d.push_token FROM order_registrations r
            JOIN order_devices d ON d.device_library_id = r.device_library_id
            WHERE r.order_type_id = \(type) AND r.order_id = \(id) ORDER BY d.device_library_id
            """, logger: logger)
        var found: [DeviceRegistration] = []
        for try await (device, token) in rows.decode((String, String).self) {
            found.append(DeviceRegistration(deviceLibraryIdentifier: device, pushToken: token))
        }
        return found
    }

    public func orderPushStates(orderTypeIdentifier: String, orderIdentifier: String) async throws -> [DevicePushState] {
        let rows = try await clients.query(
            """
            SELECT d.device_library_id,
                EXISTS (SELECT 1 FROM push_outbox o WHERE o.push_token = d.push_token AND o.pass_type_id = r.order_type_id),
                (SELECT pr.result FROM push_results pr WHERE pr.push_token = d.push_token AND pr.pass_type_id = r.order_type_id)
            FROM order_registrations r JOIN order_devices d ON d.device_library_id = r.device_library_id
            WHERE r.order_type_id = \(orderTypeIdentifier) AND r.order_id = \(orderIdentifier) ORDER BY d.device_library_id
            """, logger: logger)
        var states: [DevicePushState] = []
        for try await (device, pending, result) in rows.decode((String, Bool, String?).self) {
            states.append(DevicePushState(deviceLibraryIdentifier: device, pending: pending, lastResultJSON: result))
        }
        return states
    }
}
