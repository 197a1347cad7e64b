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

    static func order(_ orders: any PassStore) async throws -> StoredPass {
        try await orders.insert(
            StoredPass(
                passTypeIdentifier: orderType, serialNumber: unique("order"), authenticationToken: "order-token-0123456789",
                template: "Shipment.order", dataJSON: #"{"status":"open"}"#))
    }

    static func complete(_ orders: any PassStore, _ id: String) async throws -> PassChange? {
        try await orders.change(
            passTypeIdentifier: orderType, serialNumber: id, .update(dataJSON: #"{"status":"completed"}"#, voided: nil), basedOn: nil)
    }

    @Test(.enabled(if: TestEnvironment.runsPostgreSQLTests))
    func anOrderChangeCommittingLateWithAnEarlierTagReachesTheDevicesNextPoll() async throws {
        let url = try await offPool { Result { try TestEnvironment.freshPostgresURL() } }.get()
        let logger = Logger(label: "test.tag-order")
        let blocker = try PostgresPassStore.client(url: url, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await blocker.run() }
            try await openPassStore(url: url, logger: Logger(label: "test.node-a")).whileRunning { nodeA in
                try await openPassStore(url: url, logger: Logger(label: "test.node-b")).whileRunning { nodeB in
                    try await Self.interleaveOrders(nodeA, nodeB, blocker: blocker, logger: logger)
                }
            }
            group.cancelAll()
        }
    }

    /// As ``interleave(_:_:blocker:logger:)``, with an order changed slowly on node A and another quickly on node B.
    static func interleaveOrders(_ nodeA: any PassStore, _ nodeB: any PassStore, blocker: PostgresClient, logger: Logger) async throws {
        let (slow, fast, device) = (try await order(nodeA), try await order(nodeA), unique("dev"))
        let (deviceToken, otherToken) = ("ff" + pushToken().dropFirst(2), "00" + pushToken().dropFirst(2))
        for order in [slow, fast] {
            _ = try await nodeA.register(
                deviceLibraryIdentifier: device, pushToken: deviceToken, passTypeIdentifier: orderType,
                serialNumber: order.serialNumber)
        }
        _ = try await nodeA.register(
            deviceLibraryIdentifier: unique("other"), pushToken: otherToken, passTypeIdentifier: orderType,
            serialNumber: slow.serialNumber)
        let first = try await nodeB.updatedSerials(deviceLibraryIdentifier: device, passTypeIdentifier: orderType, updatedSince: nil)
        #expect(Set(first.serialNumbers) == [slow.serialNumber, fast.serialNumber])

        let (seen, fastTag, slowChange) = try await blocker.withTransaction(logger: logger) { connection in
            try await connection.query(
                """
                INSERT INTO push_outbox (push_token, pass_type_id, generation, due_at, enqueued_at)
                VALUES (\(otherToken), \(orderType), 1, 0, 0)
                """, logger: logger)
            let slowChange = Task {
                try await complete(nodeA, slow.serialNumber)
            }
            let waiting = try await eventually { try await waitingForALock(blocker, logger) }
            #expect(waiting, "the slow change waits for the held push row")
            let fastChange = try #require(
                try await complete(nodeB, fast.serialNumber))
            let seen = try await nodeB.updatedSerials(
                deviceLibraryIdentifier: device, passTypeIdentifier: orderType, updatedSince: first.lastUpdated)
            #expect(seen.serialNumbers == [fast.serialNumber], "the fast change shows, the slow one has not committed")
            return (seen, fastChange.pass.updateTag, slowChange)
        }
        let slowCommitted = try #require(try await slowChange.value)
        #expect(slowCommitted.pass.updateTag < fastTag, "the slow change committed last with the lower tag")
        let next = try await nodeA.updatedSerials(
            deviceLibraryIdentifier: device, passTypeIdentifier: orderType, updatedSince: seen.lastUpdated)
        #expect(next.serialNumbers.contains(slow.serialNumber), "the device's next poll finds the order that changed late")
    }
}
