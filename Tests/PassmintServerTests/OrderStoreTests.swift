import Foundation
import PassmintStore
import PassmintTestSupport
import Testing

/// Wallet orders in both stores: documents of the passes' tables (an order type, an order identifier for serial),
/// registered like passes, a change compare-and-swapped on its tag and owing a push (topic: the order type identifier)
/// through the passes' outbox in its own transaction.
@Suite struct OrderStoreTests {
    static let type = "order.dev.passmint.example"

    static func newOrder(_ orders: any PassStore) async throws -> StoredPass {
        try await orders.insert(
            StoredPass(
                passTypeIdentifier: type, serialNumber: unique("order"), authenticationToken: "order-token-0123456789",
                template: "Shipment.order", dataJSON: #"{"status":"open"}"#))
    }

    static func change(_ orders: any PassStore, _ id: String, _ dataJSON: String, basedOn: Int64?) async throws -> PassChange? {
        try await orders.change(passTypeIdentifier: type, serialNumber: id, .update(dataJSON: dataJSON, voided: nil), basedOn: basedOn)
    }

    @Test(arguments: StoreKind.allCases)
    func aChangeOwesAPushWithTheOrderTypeAsTopicAndListsTheOrderAsChanged(_ kind: StoreKind) async throws {
        let clock = ManualClock()
        try await withStore(kind, clock: clock) { store in
            let orders = store
            let order = try await Self.newOrder(orders)
            let (phone, device) = (pushToken(), unique("device"))
            #expect(
                try await orders.register(
                    deviceLibraryIdentifier: device, pushToken: phone, passTypeIdentifier: Self.type,
                    serialNumber: order.serialNumber)
                    == .created)
            #expect(
                try await orders.register(
                    deviceLibraryIdentifier: device, pushToken: phone, passTypeIdentifier: Self.type,
                    serialNumber: order.serialNumber)
                    == .alreadyRegistered)
            #expect(try await store.claimPushes(limit: 10, lease: .seconds(60)).isEmpty, "registering owes nothing")
            let all = try await orders.updatedSerials(deviceLibraryIdentifier: device, passTypeIdentifier: Self.type, updatedSince: nil)
            #expect(all.serialNumbers == [order.serialNumber] && all.lastUpdated == order.updateTag)

            // The clock stands still: the new version's date still moves a second on.
            let change = try #require(
                try await Self.change(orders, order.serialNumber, #"{"status":"completed"}"#, basedOn: order.updateTag))
            #expect(change.changed && change.registrations.map(\.pushToken) == [phone])
            #expect(change.pass.updateTag > order.updateTag && change.pass.updatedAt == order.updatedAt.addingTimeInterval(1))
            let stored = try await orders.pass(passTypeIdentifier: Self.type, serialNumber: order.serialNumber)
            #expect(stored == change.pass)
            let states = try await orders.pushStates(passTypeIdentifier: Self.type, serialNumber: order.serialNumber)
            #expect(states == [DevicePushState(deviceLibraryIdentifier: device, pending: true, lastResultJSON: nil)])

            let claimed = try await store.claimPushes(limit: 10, lease: .seconds(60))
            #expect(claimed.map(\.pushToken) == [phone] && claimed.map(\.passTypeIdentifier) == [Self.type])
            let since = try await orders.updatedSerials(
                deviceLibraryIdentifier: device, passTypeIdentifier: Self.type, updatedSince: all.lastUpdated)
            #expect(since == UpdatedSerials(serialNumbers: [order.serialNumber], lastUpdated: change.pass.updateTag))
            let none = try await orders.updatedSerials(
                deviceLibraryIdentifier: device, passTypeIdentifier: Self.type, updatedSince: since.lastUpdated)
            #expect(none.serialNumbers.isEmpty && none.lastUpdated == since.lastUpdated)

            // The same data again changes nothing and owes nothing.
            try await store.settlePushes(OutboxSettlement(claimed, .done))
            let same = try await Self.change(orders, order.serialNumber, #"{"status":"completed"}"#, basedOn: nil)
            #expect(same?.changed == false && same?.pass.updateTag == change.pass.updateTag)
            #expect(try await store.outboxStatus(.applePush).depth == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aChangeFromAnOldVersionIsRefusedAndTwoRacingFromOneVersionCommitOnce(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let orders = store
            let order = try await Self.newOrder(orders)
            let id = order.serialNumber
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for status in ["completed", "cancelled"] {
                    group.addTask {
                        do {
                            _ = try await Self.change(orders, id, #"{"status":"\#(status)"}"#, basedOn: order.updateTag)
                            return true
                        } catch let error as PassStoreError where error.code == .stale {
                            #expect(error.message.contains("read it again"))
                            return false
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.count == 2 && outcomes.filter { $0 }.count == 1, "one of two changes from one version commits")
            #expect(
                try await Self.change(orders, "missing", "{}", basedOn: nil)
                    == nil)
            await #expect(throws: PassStoreError.self) { _ = try await orders.insert(order) }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func unregisteringOrADeadTokenRemovesTheRegistration(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let orders = store
            let order = try await Self.newOrder(orders)
            let id = order.serialNumber
            let (phone, tablet) = (pushToken(), pushToken())
            for (device, token) in [("phone", phone), ("tablet", tablet)] {
                _ = try await orders.register(
                    deviceLibraryIdentifier: device + id, pushToken: token, passTypeIdentifier: Self.type, serialNumber: id)
            }
            #expect(
                try await orders.unregister(deviceLibraryIdentifier: "phone" + id, passTypeIdentifier: Self.type, serialNumber: id)
            )
            #expect(
                !(try await orders.unregister(
                    deviceLibraryIdentifier: "phone" + id, passTypeIdentifier: Self.type, serialNumber: id)))
            _ = try await Self.change(orders, id, #"{"status":"x"}"#, basedOn: nil)
            let claimed = try await store.claimPushes(limit: 10, lease: .seconds(60))
            #expect(claimed.map(\.pushToken) == [tablet])
            try await store.settlePushes(OutboxSettlement(claimed, .givenUp))
            #expect(try await orders.registrations(passTypeIdentifier: Self.type, serialNumber: id).isEmpty)
        }
    }
}
