import Foundation

/// Wallet orders on SQLite: their own tables (``SQLiteSchema`` migration 7), the passes' tag counter, and the passes'
/// push outbox (the order type identifier in its type column, the push's topic).
extension SQLitePassStore: OrderStore {
    static let orderColumns = "order_type_id, order_id, authentication_token, template, data, update_tag, updated_at"

    static func orderFrom(_ row: SQLiteConnection.Row) -> StoredOrder {
        StoredOrder(
            orderTypeIdentifier: row.text(0) ?? "", orderIdentifier: row.text(1) ?? "", authenticationToken: row.text(2) ?? "",
            template: row.text(3) ?? "", dataJSON: row.text(4) ?? "{}", updateTag: row.integer(5),
            updatedAt: Date(timeIntervalSince1970: TimeInterval(row.integer(6))))
    }

    static func order(_ db: SQLiteConnection, _ type: String, _ id: String) throws -> StoredOrder? {
        var found: StoredOrder?
        try db.query("SELECT \(orderColumns) FROM orders WHERE order_type_id = ? AND order_id = ?", [.text(type), .text(id)]) {
            found = orderFrom($0)
        }
        return found
    }

    public func insertOrder(_ order: StoredOrder) async throws -> StoredOrder {
        try await writer.write { db in
            let stored = order.firstVersion(tag: try SQLiteSchema.nextTag(db), now: self.clock())
            do {
                try db.query(
                    "INSERT INTO orders (\(Self.orderColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        .text(stored.orderTypeIdentifier), .text(stored.orderIdentifier), .text(stored.authenticationToken),
                        .text(stored.template), .text(stored.dataJSON), .integer(stored.updateTag),
                        .integer(Int64(stored.updatedAt.timeIntervalSince1970)),
                    ])
            } catch let error as PassStoreError where error.kind == .duplicate {
                throw PassStoreError(
                    .duplicate, "an order \(order.orderTypeIdentifier) / \(order.orderIdentifier) already exists; change it instead")
            }
            return stored
        }
    }

    public func order(orderTypeIdentifier: String, orderIdentifier: String) async throws -> StoredOrder? {
        try read { db in try Self.order(db, orderTypeIdentifier, orderIdentifier) }
    }

    public func changeOrder(
        orderTypeIdentifier: String, orderIdentifier: String, dataJSON: String, basedOn: Int64?
    ) async throws -> OrderChange? {
        try await writer.write { db in
            // The writer thread is the only writer: what it reads here stays as read until the commit.
            guard let current = try Self.order(db, orderTypeIdentifier, orderIdentifier) else { return nil }
            try current.checkBasedOn(basedOn)
            let registrations = try Self.orderRegistrations(db, orderTypeIdentifier, orderIdentifier)
            guard current.dataJSON != dataJSON else { return OrderChange(order: current, changed: false, registrations: registrations) }
            let order = current.nextVersion(dataJSON: dataJSON, tag: try SQLiteSchema.nextTag(db), now: self.clock())
            try db.query(
                "UPDATE orders SET data = ?, update_tag = ?, updated_at = ? WHERE order_type_id = ? AND order_id = ?",
                [
                    .text(order.dataJSON), .integer(order.updateTag), .integer(Int64(order.updatedAt.timeIntervalSince1970)),
                    .text(orderTypeIdentifier), .text(orderIdentifier),
                ])
            try Self.owePushes(db, tokens: registrations.map(\.pushToken), passTypeIdentifier: orderTypeIdentifier, now: self.clock())
            return OrderChange(order: order, changed: true, registrations: registrations)
        }
    }

    public func registerOrder(
        deviceLibraryIdentifier: String, pushToken: String, orderTypeIdentifier: String, orderIdentifier: String
    ) async throws -> RegistrationResult {
        try await writer.write { db in
            try db.query(
                """
                INSERT INTO order_devices (device_library_id, push_token) VALUES (?, ?) ON CONFLICT (device_library_id)
                DO UPDATE SET push_token = excluded.push_token WHERE push_token <> excluded.push_token
                """, [.text(deviceLibraryIdentifier), .text(pushToken)])
            try db.query(
                "INSERT OR IGNORE INTO order_registrations (device_library_id, order_type_id, order_id) VALUES (?, ?, ?)",
                [.text(deviceLibraryIdentifier), .text(orderTypeIdentifier), .text(orderIdentifier)])
            return db.changes > 0 ? .created : .alreadyRegistered
        }
    }

    public func unregisterOrder(deviceLibraryIdentifier: String, orderTypeIdentifier: String, orderIdentifier: String) async throws -> Bool
    {
        try await writer.write { db in
            try db.query(
                "DELETE FROM order_registrations WHERE device_library_id = ? AND order_type_id = ? AND order_id = ?",
                [.text(deviceLibraryIdentifier), .text(orderTypeIdentifier), .text(orderIdentifier)])
            let removed = db.changes > 0
            try db.query(
                """
                DELETE FROM order_devices WHERE device_library_id = ?
                AND NOT EXISTS (SELECT 1 FROM order_registrations WHERE device_library_id = ?)
                """, [.text(deviceLibraryIdentifier), .text(deviceLibraryIdentifier)])
            return removed
        }
    }

    public func updatedOrders(
        deviceLibraryIdentifier: String, orderTypeIdentifier: String, updatedSince: Int64?
    ) async throws -> UpdatedOrders {
        try read { db in
            var result = UpdatedOrders(orderIdentifiers: [], lastUpdated: updatedSince ?? 0)
            try db.query(
                """
                SELECT o.order_id, o.update_tag FROM order_registrations r
                CROSS JOIN orders o ON o.order_type_id = r.order_type_id AND o.order_id = r.order_id
                WHERE r.device_library_id = ? AND r.order_type_id = ? AND o.update_tag > ? ORDER BY o.update_tag
                """, [.text(deviceLibraryIdentifier), .text(orderTypeIdentifier), .integer(updatedSince ?? -1)]
            ) { row in
                result.orderIdentifiers.append(row.text(0) ?? "")
                result.lastUpdated = max(result.lastUpdated, row.integer(1))
            }
            return result
        }
    }

    public func orderRegistrations(orderTypeIdentifier: String, orderIdentifier: String) async throws -> [DeviceRegistration] {
        try read { db in try Self.orderRegistrations(db, orderTypeIdentifier, orderIdentifier) }
    }

    static func orderRegistrations(_ db: SQLiteConnection, _ type: String, _ id: String) throws -> [DeviceRegistration] {
        var found: [DeviceRegistration] = []
        try db.query(
            """
            SELECT d.device_library_id, d.push_token FROM order_registrations r
            JOIN order_devices d ON d.device_library_id = r.device_library_id
            WHERE r.order_type_id = ? AND r.order_id = ? ORDER BY d.device_library_id
            """, [.text(type), .text(id)]
        ) { found.append(DeviceRegistration(deviceLibraryIdentifier: $0.text(0) ?? "", pushToken: $0.text(1) ?? "")) }
        return found
    }

    public func orderPushStates(orderTypeIdentifier: String, orderIdentifier: String) async throws -> [DevicePushState] {
        try read { db in
            var states: [DevicePushState] = []
            try db.query(
                """
                SELECT d.device_library_id,
                    EXISTS (SELECT 1 FROM push_outbox o WHERE o.push_token = d.push_token AND o.pass_type_id = r.order_type_id),
                    (SELECT pr.result FROM push_results pr WHERE pr.push_token = d.push_token AND pr.pass_type_id = r.order_type_id)
                FROM order_registrations r JOIN order_devices d ON d.device_library_id = r.device_library_id
                WHERE r.order_type_id = ? AND r.order_id = ? ORDER BY d.device_library_id
                """, [.text(orderTypeIdentifier), .text(orderIdentifier)]
            ) { row in
                states.append(
                    DevicePushState(deviceLibraryIdentifier: row.text(0) ?? "", pending: row.integer(1) != 0, lastResultJSON: row.text(2)))
            }
            return states
        }
    }
}
