import Foundation
import PassmintStore
import PassmintTestSupport
import Testing

/// Wallet orders in both stores: kept beside passes, registered like passes, a change compare-and-swapped on its tag
/// and owing a push (topic: the order type identifier) through the passes' outbox in its own transaction.
@Suite struct OrderStoreTests {
    static let type = "order.dev.passmint.example"

    static func orders(_ store: any PassStore) throws -> any OrderStore {
        try #require(store as? any OrderStore, "every store keeps orders")
    }

    static func newOrder(_ orders: any OrderStore) async throws -> StoredOrder {
        try await orders.insertOrder(
            StoredOrder(
                orderTypeIdentifier: type, orderIdentifier: unique("order"), authenticationToken: "order-token-0123456789",
                template: "Shipment", dataJSON: #"{"status":"open"}"#))
    }

    @Test(arguments: StoreKind.allCases)
    func aChangeOwesAPushWithTheOrderTypeAsTopicAndListsTheOrderAsChanged(_ kind: StoreKind) async throws {
        let clock = ManualClock()
        try await withStore(kind, clock: clock) { store in
            let orders = try Self.orders(store)
            let order = try await Self.newOrder(orders)
            let (phone, device) = (pushToken(), unique("device"))
            #expect(
                try await orders.registerOrder(
                    deviceLibraryIdentifier: device, pushToken: phone, orderTypeIdentifier: Self.type,
                    orderIdentifier: order.orderIdentifier)
                    == .created)
            #expect(
                try await orders.registerOrder(
                    deviceLibraryIdentifier: device, pushToken: phone, orderTypeIdentifier: Self.type,
                    orderIdentifier: order.orderIdentifier)
                    == .alreadyRegistered)
            #expect(try await store.claimPushes(limit: 10, lease: .seconds(60)).isEmpty, "registering owes nothing")
            let all = try await orders.updatedOrders(deviceLibraryIdentifier: device, orderTypeIdentifier: Self.type, updatedSince: nil)
            #expect(all.orderIdentifiers == [order.orderIdentifier] && all.lastUpdated == order.updateTag)

            // The clock stands still: the new version's date still moves a second on.
            let change = try #require(
                try await orders.changeOrder(
                    orderTypeIdentifier: Self.type, orderIdentifier: order.orderIdentifier, dataJSON: #"{"status":"completed"}"#,
                    basedOn: order.updateTag))
            #expect(change.changed && change.registrations.map(\.pushToken) == [phone])
            #expect(change.order.updateTag > order.updateTag && change.order.updatedAt == order.updatedAt.addingTimeInterval(1))
            let stored = try await orders.order(orderTypeIdentifier: Self.type, orderIdentifier: order.orderIdentifier)
            #expect(stored == change.order)
            let states = try await orders.orderPushStates(orderTypeIdentifier: Self.type, orderIdentifier: order.orderIdentifier)
            #expect(states == [DevicePushState(deviceLibraryIdentifier: device, pending: true, lastResultJSON: nil)])

            let claimed = try await store.claimPushes(limit: 10, lease: .seconds(60))
            #expect(claimed.map(\.pushToken) == [phone] && claimed.map(\.passTypeIdentifier) == [Self.type])
            let since = try await orders.updatedOrders(
                deviceLibraryIdentifier: device, orderTypeIdentifier: Self.type, updatedSince: all.lastUpdated)
            #expect(since == UpdatedOrders(orderIdentifiers: [order.orderIdentifier], lastUpdated: change.order.updateTag))
            let none = try await orders.updatedOrders(
                deviceLibraryIdentifier: device, orderTypeIdentifier: Self.type, updatedSince: since.lastUpdated)
            #expect(none.orderIdentifiers.isEmpty && none.lastUpdated == since.lastUpdated)

            // The same data again changes nothing and owes nothing.
            try await store.settlePushes(OutboxSettlement(claimed, .done))
            let same = try await orders.changeOrder(
                orderTypeIdentifier: Self.type, orderIdentifier: order.orderIdentifier, dataJSON: #"{"status":"completed"}"#, basedOn: nil)
            #expect(same?.changed == false && same?.order.updateTag == change.order.updateTag)
            #expect(try await store.outboxStatus(.applePush).depth == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aChangeFromAnOldVersionIsRefusedAndTwoRacingFromOneVersionCommitOnce(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let orders = try Self.orders(store)
            let order = try await Self.newOrder(orders)
            let id = order.orderIdentifier
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for status in ["completed", "cancelled"] {
                    group.addTask {
                        do {
                            _ = try await orders.changeOrder(
                                orderTypeIdentifier: Self.type, orderIdentifier: id, dataJSON: #"{"status":"\#(status)"}"#,
                                basedOn: order.updateTag)
                            return true
                        } catch let error as PassStoreError where error.kind == .stale {
                            #expect(error.message.contains("read it again"))
                            return false
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.count == 2 && outcomes.filter { $0 }.count == 1, "one of two changes from one version commits")
            #expect(
                try await orders.changeOrder(orderTypeIdentifier: Self.type, orderIdentifier: "missing", dataJSON: "{}", basedOn: nil)
                    == nil)
            await #expect(throws: PassStoreError.self) { _ = try await orders.insertOrder(order) }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func unregisteringOrADeadTokenRemovesTheRegistration(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let orders = try Self.orders(store)
            let order = try await Self.newOrder(orders)
            let id = order.orderIdentifier
            let (phone, tablet) = (pushToken(), pushToken())
            for (device, token) in [("phone", phone), ("tablet", tablet)] {
                _ = try await orders.registerOrder(
                    deviceLibraryIdentifier: device + id, pushToken: token, orderTypeIdentifier: Self.type, orderIdentifier: id)
            }
            #expect(
                try await orders.unregisterOrder(deviceLibraryIdentifier: "phone" + id, orderTypeIdentifier: Self.type, orderIdentifier: id)
            )
            #expect(
                !(try await orders.unregisterOrder(
                    deviceLibraryIdentifier: "phone" + id, orderTypeIdentifier: Self.type, orderIdentifier: id)))
            _ = try await orders.changeOrder(
                orderTypeIdentifier: Self.type, orderIdentifier: id, dataJSON: #"{"status":"x"}"#, basedOn: nil)
            let claimed = try await store.claimPushes(limit: 10, lease: .seconds(60))
            #expect(claimed.map(\.pushToken) == [tablet])
            try await store.settlePushes(OutboxSettlement(claimed, .givenUp))
            #expect(try await orders.orderRegistrations(orderTypeIdentifier: Self.type, orderIdentifier: id).isEmpty)
        }
    }
}
