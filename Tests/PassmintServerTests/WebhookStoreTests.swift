import Foundation
import PassmintStore
import PassmintTestSupport
import Testing

/// Webhook deliveries in both stores: owed by the event's own transaction (a change undone owes nothing), claimed for
/// a lease, in order per pass, retried with the same event id, and settled.
@Suite struct WebhookStoreTests {
    static let type = "pass.dev.passmint.example"

    func issue(_ store: any PassStore) async throws -> String {
        try await storedPass(in: store, type: Self.type, prefix: "W")
    }

    func webhook(_ events: [PassEventKind], at date: Date) -> Webhook {
        Webhook(id: unique("wh"), url: "https://hooks.example.com/\(UUID().uuidString)", events: events, secret: "s3cret", createdAt: date)
    }

    @Test(arguments: StoreKind.allCases)
    func anEventIsOwedToEveryWebhookWantingItsKind(_ kind: StoreKind) async throws {
        let clock = ManualClock()
        try await withStore(kind, clock: clock) { store in
            let installs = webhook([.installed, .removed], at: clock.date)
            let issues = webhook([.issued], at: clock.date)
            try await store.addWebhook(installs)
            try await store.addWebhook(issues)
            #expect(try await store.webhooks().map(\.id).sorted() == [installs.id, issues.id].sorted())
            #expect(try await store.webhooks().first { $0.id == installs.id } == installs)

            let serial = try await issue(store)
            _ = try await store.register(
                deviceLibraryIdentifier: "device-\(UUID().uuidString)", pushToken: pushToken(), passTypeIdentifier: Self.type,
                serialNumber: serial)
            let claimed = try await store.claimWebhookDeliveries(limit: 10, lease: .seconds(60))
            #expect(claimed.map(\.event.kind) == [.issued, .installed])
            #expect(claimed.map(\.webhookId) == [issues.id, installs.id])
            #expect(claimed.map(\.url) == [issues.url, installs.url])
            #expect(claimed.allSatisfy { $0.event.serialNumber == serial && $0.event.template == "Loyalty" && $0.secret == "s3cret" })
            #expect(claimed.last?.event.deviceHash?.count == 32)
            #expect(Set(claimed.map(\.eventId)).count == 2 && claimed.allSatisfy { $0.eventId.hasPrefix("evt_") && $0.eventId.count == 36 })

            // Removed: nothing more is owed to it, and what it was owed goes.
            #expect(try await store.removeWebhook(id: issues.id))
            #expect(try await !store.removeWebhook(id: issues.id))
            _ = try await issue(store)
            clock.advance(by: .seconds(61))
            #expect(try await store.claimWebhookDeliveries(limit: 10, lease: .seconds(60)).map(\.webhookId) == [installs.id])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aChangeUndoneOwesNothing(_ kind: StoreKind) async throws {
        let clock = ManualClock()
        try await withStore(kind, clock: clock) { store in
            try await store.addWebhook(webhook([.issued], at: clock.date))
            let existing = try await issue(store)
            _ = try await store.claimWebhookDeliveries(limit: 10, lease: .seconds(600))
            let fresh = StoredPass(
                passTypeIdentifier: Self.type, serialNumber: unique("W"), authenticationToken: "token-0123456789abcdef",
                template: "Loyalty",
                dataJSON: "{}")
            let duplicate = StoredPass(
                passTypeIdentifier: Self.type, serialNumber: existing, authenticationToken: "token-0123456789abcdef", template: "Loyalty",
                dataJSON: "{}")
            await #expect(throws: PassStoreError.self) { try await store.insert(order: [fresh, duplicate], images: []) }
            #expect(try await store.claimWebhookDeliveries(limit: 10, lease: .seconds(60)).isEmpty, "the order was undone, its event too")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func retriesKeepTheEventIdAndTheOrderOfAPass(_ kind: StoreKind) async throws {
        let clock = ManualClock()
        try await withStore(kind, clock: clock) { store in
            try await store.addWebhook(webhook([.issued, .updated], at: clock.date))
            let serial = try await issue(store)
            clock.advance(by: .seconds(1))
            _ = try await store.update(passTypeIdentifier: Self.type, serialNumber: serial, dataJSON: #"{"points":2}"#, voided: false)

            let first = try await store.claimWebhookDeliveries(limit: 10, lease: .seconds(60))
            #expect(first.map(\.event.kind) == [.issued], "the update waits until the issue is settled")
            #expect(try await store.claimWebhookDeliveries(limit: 10, lease: .seconds(60)).isEmpty, "leased")

            // The deliverer died holding it: after the lease, it is claimed again with the same event id.
            clock.advance(by: .seconds(61))
            let again = try await store.claimWebhookDeliveries(limit: 10, lease: .seconds(60))
            #expect(again.map(\.eventId) == first.map(\.eventId))

            var retry = OutboxSettlement<WebhookDelivery>()
            retry.add(try #require(again.first), .retry(at: clock.date.addingTimeInterval(30)), note: "HTTP 500")
            try await store.settleWebhookDeliveries(retry)
            #expect(try await store.claimWebhookDeliveries(limit: 10, lease: .seconds(60)).isEmpty, "not due, and the update waits")
            clock.advance(by: .seconds(30))
            let third = try await store.claimWebhookDeliveries(limit: 10, lease: .seconds(60))
            #expect(third.map(\.eventId) == first.map(\.eventId) && third.map(\.attempts) == [1])

            try await store.settleWebhookDeliveries(OutboxSettlement([try #require(third.first)], .done))
            let next = try await store.claimWebhookDeliveries(limit: 10, lease: .seconds(60))
            #expect(next.map(\.event.kind) == [.updated])
            var failed = OutboxSettlement<WebhookDelivery>()
            failed.add(try #require(next.first), .givenUp, note: "gave up")
            try await store.settleWebhookDeliveries(failed)
            clock.advance(by: .seconds(3600))
            #expect(try await store.claimWebhookDeliveries(limit: 10, lease: .seconds(60)).isEmpty, "delivered and given up: done")
        }
    }
}
