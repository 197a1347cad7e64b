import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Passmint
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Testing

/// A webhook's deliveries listed (newest first, paged) with their state, attempts and last error, and replayed with
/// their event id: in both stores, and through `/api/v1/webhooks/{id}/deliveries` against a real receiver.
@Suite struct WebhookReplayTests {
    @Test(arguments: StoreKind.allCases)
    func theStoreListsAndReplaysDeliveries(_ kind: StoreKind) async throws {
        let clock = ManualClock()
        try await withStore(kind, clock: clock) { store in
            let helper = WebhookStoreTests()
            let hook = helper.webhook([.issued], at: clock.date)
            try await store.addWebhook(hook)
            let first = try await helper.issue(store)
            let second = try await helper.issue(store)
            let owed = try await store.webhookDeliveries(webhookId: hook.id, limit: 10, before: nil)
            #expect(owed.map(\.event.serialNumber) == [second, first], "newest first")
            #expect(owed.allSatisfy { $0.state == .pending && $0.attempts == 0 && $0.lastError == nil })
            #expect(try await store.webhookDeliveries(webhookId: hook.id, limit: 1, before: owed[0].id).map(\.id) == [owed[1].id])
            #expect(try await store.webhookDeliveries(webhookId: "wh_other", limit: 10, before: nil).isEmpty)
            #expect(try await store.replayWebhookDelivery(webhookId: hook.id, id: owed[0].id) == .stillOwed)
            #expect(try await store.replayWebhookDelivery(webhookId: "wh_other", id: owed[0].id) == .notFound)

            let claimed = try await store.claimWebhookDeliveries(limit: 10, lease: .seconds(60))
            var settlement = OutboxSettlement([claimed[0]], .done)
            settlement.add(claimed[1], .givenUp, note: "the receiver answered HTTP 500")
            try await store.settleWebhookDeliveries(settlement)
            let settled = try await store.webhookDeliveries(webhookId: hook.id, limit: 10, before: nil)
            #expect(settled.map(\.state) == [.failed, .delivered])
            #expect(settled[0].attempts == 1 && settled[0].lastError == "the receiver answered HTTP 500" && settled[0].failedAt != nil)
            #expect(settled[1].deliveredAt != nil)
            #expect(settled[1].attempts == 1, "the delivery that succeeded counts as an attempt (issue 39)")

            clock.advance(by: .seconds(5))
            #expect(try await store.replayWebhookDelivery(webhookId: hook.id, id: settled[0].id) == .replayed)
            #expect(try await store.replayWebhookDelivery(webhookId: hook.id, id: settled[1].id) == .replayed)
            let again = try await store.claimWebhookDeliveries(limit: 10, lease: .seconds(60))
            #expect(again.map(\.eventId) == claimed.map(\.eventId), "the same events, with their ids")
            #expect(again.allSatisfy { $0.attempts == 0 })
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aFailedDeliveryIsListedAndReplayedThroughTheAPI(_ kind: StoreKind) async throws {
        let clock = ManualClock()
        let receiver = try await WebhookDeliveryTests.receiver(clock)
        defer { receiver.shutdown() }
        try await withStore(kind, clock: clock) { store in
            var policy = WebhookDeliveryTests.policy()
            policy.retryWindow = .seconds(1)  // the first failure gives up
            let core = try WebhookDeliveryTests.core(store, clock, policy: policy)
            try await buildApplication(core: core, logger: .init(label: "test")).serviceTest(.router) { client in
                let made = try await WebhookDeliveryTests.subscribe(client, receiver.url, ["issued"])
                let id = try #require(made["id"]?.stringValue)
                receiver.answerNext([500])
                let pass = try await WebhookDeliveryTests.issue(client)
                try await core.webhookDeliverer.drain()
                #expect(await eventually { receiver.received.count == 1 })
                #expect(try await eventually { try await Self.deliveries(client, id).first?["state"] == "failed" })

                let listed = try await Self.deliveries(client, id)
                #expect(listed.count == 1)
                let failed = try #require(listed.first)
                #expect(failed["serialNumber"]?.stringValue == pass.serial && failed["type"] == "issued" && failed["attempts"] == 1)
                #expect(failed["lastError"]?.stringValue == "the receiver answered HTTP 500" && failed["failedAt"] != nil)
                #expect(failed["eventId"]?.stringValue == receiver.received.first?.eventId)
                let delivery = try #require(failed["id"]?.numberValue?.text)

                try await client.execute(
                    uri: "/api/v1/webhooks/\(id)/deliveries/\(delivery)/replay", method: .post, headers: WebhookDeliveryTests.bearer
                ) { #expect($0.status == .accepted, "\(String(buffer: $0.body))") }
                try await core.webhookDeliverer.drain()
                #expect(await eventually { receiver.acknowledged.count == 1 })
                #expect(try await eventually { try await Self.deliveries(client, id).first?["state"] == "delivered" })
                #expect(receiver.received.map(\.eventId) == [failed["eventId"]?.stringValue ?? "", failed["eventId"]?.stringValue ?? ""])

                // Replayed once more after it was delivered: the receiver sees the same event id and drops it.
                try await client.execute(
                    uri: "/api/v1/webhooks/\(id)/deliveries/\(delivery)/replay", method: .post, headers: WebhookDeliveryTests.bearer
                ) { #expect($0.status == .accepted) }
                try await core.webhookDeliverer.drain()
                #expect(await eventually { receiver.duplicates == 1 })

                for (uri, status) in [
                    ("/api/v1/webhooks/wh_nope/deliveries", HTTPResponse.Status.notFound),
                    ("/api/v1/webhooks/\(id)/deliveries?limit=0", .badRequest),
                    ("/api/v1/webhooks/\(id)/deliveries?before=x", .badRequest),
                ] {
                    try await client.execute(uri: uri, method: .get, headers: WebhookDeliveryTests.bearer) {
                        #expect($0.status == status, "\(uri): \(String(buffer: $0.body))")
                    }
                }
                try await client.execute(
                    uri: "/api/v1/webhooks/\(id)/deliveries/999999/replay", method: .post, headers: WebhookDeliveryTests.bearer
                ) { #expect($0.status == .notFound) }
            }
        }
    }

    static func deliveries(_ client: some ServiceClient, _ id: String) async throws -> [JSONValue] {
        let response = try await client.execute(
            uri: "/api/v1/webhooks/\(id)/deliveries", method: .get, headers: WebhookDeliveryTests.bearer)
        return try JSONParser.value(Array(response.body.readableBytesView))["deliveries"]?.arrayValue ?? []
    }
}
