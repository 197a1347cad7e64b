import Foundation
import Logging
import PassmintServer
import PassmintStore
import PassmintStorePostgres
import PassmintTestSupport
import PostgresNIO
import Testing

/// Orders share the passes' tags: the same interleaving for `ordersModifiedSince`.
extension PostgresTagOrderTests {
    static let orderType = "order.dev.passmint.example"

    static func order(_ orders: any OrderStore) async throws -> StoredOrder {
        try await orders.insertOrder(
            StoredOrder(
                orderTypeIdentifier: orderType, orderIdentifier: unique("order"), authenticationToken: "order-token-0123456789",
                template: "Shipment", dataJSON: #"{"status":"open"}"#))
    }

    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests))
    func anOrderChangeCommittingLateWithAnEarlierTagReachesTheDevicesNextPoll() async throws {
        let url = try await ConnectionLimitsTests.offPool { Result { try TestEnvironment.freshPostgresURL() } }.get()
        let logger = Logger(label: "test.tag-order")
        let blocker = try PostgresPassStore.client(url: url, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await blocker.run() }
            try await openPassStore(url: url, logger: Logger(label: "test.node-a")).whileRunning { nodeA in
                try await openPassStore(url: url, logger: Logger(label: "test.node-b")).whileRunning { nodeB in
                    let (ordersA, ordersB) = (try #require(nodeA as? any OrderStore), try #require(nodeB as? any OrderStore))
                    try await Self.interleaveOrders(ordersA, ordersB, blocker: blocker, logger: logger)
                }
            }
            group.cancelAll()
        }
    }

    /// As ``interleave(_:_:blocker:logger:)``, with an order changed slowly on node A and another quickly on node B.
    static func interleaveOrders(_ nodeA: any OrderStore, _ nodeB: any OrderStore, blocker: PostgresClient, logger: Logger) async throws {
        let (slow, fast, device) = (try await order(nodeA), try await order(nodeA), unique("dev"))
        let (deviceToken, otherToken) = ("ff" + pushToken().dropFirst(2), "00" + pushToken().dropFirst(2))
        for order in [slow, fast] {
            _ = try await nodeA.registerOrder(
                deviceLibraryIdentifier: device, pushToken: deviceToken, orderTypeIdentifier: orderType,
                orderIdentifier: order.orderIdentifier)
        }
        _ = try await nodeA.registerOrder(
            deviceLibraryIdentifier: unique("other"), pushToken: otherToken, orderTypeIdentifier: orderType,
            orderIdentifier: slow.orderIdentifier)
        let first = try await nodeB.updatedOrders(deviceLibraryIdentifier: device, orderTypeIdentifier: orderType, updatedSince: nil)
        #expect(Set(first.orderIdentifiers) == [slow.orderIdentifier, fast.orderIdentifier])

        let (seen, fastTag, slowChange) = try await blocker.withTransaction(logger: logger) { connection in
            try await connection.query(
                """
                INSERT INTO push_outbox (push_token, pass_type_id, generation, due_at, enqueued_at)
                VALUES (\(otherToken), \(orderType), 1, 0, 0)
                """, logger: logger)
            let slowChange = Task {
                try await nodeA.changeOrder(
                    orderTypeIdentifier: orderType, orderIdentifier: slow.orderIdentifier, dataJSON: #"{"status":"completed"}"#,
                    basedOn: nil)
            }
            let waiting = try await eventually { try await waitingForALock(blocker, logger) }
            #expect(waiting, "the slow change waits for the held push row")
            let fastChange = try #require(
                try await nodeB.changeOrder(
                    orderTypeIdentifier: orderType, orderIdentifier: fast.orderIdentifier, dataJSON: #"{"status":"completed"}"#,
                    basedOn: nil))
            let seen = try await nodeB.updatedOrders(
                deviceLibraryIdentifier: device, orderTypeIdentifier: orderType, updatedSince: first.lastUpdated)
            #expect(seen.orderIdentifiers == [fast.orderIdentifier], "the fast change shows, the slow one has not committed")
            return (seen, fastChange.order.updateTag, slowChange)
        }
        let slowCommitted = try #require(try await slowChange.value)
        #expect(slowCommitted.order.updateTag < fastTag, "the slow change committed last with the lower tag")
        let next = try await nodeA.updatedOrders(
            deviceLibraryIdentifier: device, orderTypeIdentifier: orderType, updatedSince: seen.lastUpdated)
        #expect(next.orderIdentifiers.contains(slow.orderIdentifier), "the device's next poll finds the order that changed late")
    }
}
