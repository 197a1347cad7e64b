import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintStore
import PassmintTestSupport
import Testing

@testable import PassmintServer

/// What keeps webhooks safe: receivers on loopback, private or link-local addresses are refused when registered and
/// again before each delivery (SSRF), http only when allowed; and deliveries a node held when it died go out after a
/// restart, none lost.
@Suite struct WebhookSafetyTests {
    /// The message of an error answer (`{"error": {"message": …}}`).
    static func message(_ body: ByteBuffer) -> String {
        (try? JSONParser.value(Array(body.readableBytesView)))?["error"]?["message"]?.stringValue ?? String(buffer: body)
    }

    @Test(arguments: [
        "https://127.0.0.1/hooks", "https://localhost:8443/hooks", "https://10.1.2.3/hooks", "https://192.168.0.7/hooks",
        "https://172.20.0.1/hooks", "https://169.254.169.254/latest/meta-data", "https://[::1]/hooks", "https://[fe80::1]/hooks",
        "https://[::ffff:127.0.0.1]/hooks", "https://0.0.0.0/hooks",
        // IPv6 forms of loopback and site-local addresses (issue 40).
        "https://[::7f00:1]/hooks", "https://[::ffff:0:7f00:1]/hooks", "https://[2002:7f00:1::1]/hooks", "https://[fec0::1]/hooks",
    ])
    func aPrivateReceiverIsRefused(_ url: String) async throws {
        let clock = ManualClock()
        try await withStore(.sqlite, clock: clock) { store in
            let core = try WebhookDeliveryTests.core(store, clock, policy: WebhookDeliveryTests.policy(allowPrivate: false))
            try await buildApplication(core: core, logger: .init(label: "test")).serviceTest(.router) { client in
                let response = try await client.execute(
                    uri: "/api/v1/webhooks", method: .post, headers: WebhookDeliveryTests.bearer,
                    body: ByteBuffer(string: #"{"url":"\#(url)","events":["installed"]}"#))
                #expect(response.status == .badRequest)
                let message = WebhookSafetyTests.message(response.body)
                #expect(
                    message.contains("loopback, private or link-local") && message.contains("PASSMINT_WEBHOOKS_ALLOW_PRIVATE"), "\(message)"
                )
                #expect(try await core.webhooks.list().isEmpty)
            }
        }
    }

    /// Each event is owed to every webhook in the transaction that writes it: their number is bounded, counted in
    /// the adding transaction, also when several are added at once (issue 40).
    @Test(arguments: StoreKind.allCases)
    func theNumberOfWebhooksIsBounded(_ kind: StoreKind) async throws {
        let clock = ManualClock()
        var bounded = WebhookPolicy()
        bounded.allowPrivate = true
        bounded.maximumWebhooks = 3
        let policy = bounded
        try await withStore(kind, clock: clock) { store in
            let core = try WebhookDeliveryTests.core(store, clock, policy: policy)
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        do {
                            _ = try await core.webhooks.create(url: "https://127.0.0.1/hooks", events: ["installed"], secret: nil)
                            return true
                        } catch let error as ServiceFailure {
                            #expect(error.status == .conflict && (error.message ?? "").contains("there are 3 webhooks already"))
                            return false
                        }
                    }
                }
                var added = 0
                for try await created in group where created { added += 1 }
                #expect(added == 3)
            }
            #expect(try await core.webhooks.list().count == 3)
        }
    }

    /// A round resolves each receiver's name once, checks that address and connects to it (the client's DNS
    /// override): a name that resolved to a public address for the check cannot send the connection elsewhere (issue 40).
    @Test func aRoundConnectsToTheAddressItChecked() async throws {
        var policy = WebhookPolicy()
        policy.allowPrivate = true
        let (addresses, refusals) = await WebhookDeliverer.connections(
            to: ["https://localhost:8443/hooks", "https://127.0.0.1/other", "ftp://example.com/x"], policy: policy)
        let localhost = try #require(addresses["localhost"])
        #expect(["127.0.0.1", "::1"].contains(localhost), "\(localhost)")
        #expect(addresses["127.0.0.1"] == "127.0.0.1")
        #expect(refusals["ftp://example.com/x"]?.contains("must be an https URL") == true, "\(refusals)")
        policy.allowPrivate = false
        let (refused, privateRefusals) = await WebhookDeliverer.connections(to: ["https://localhost:8443/hooks"], policy: policy)
        #expect(refused.isEmpty && privateRefusals.count == 1)
    }

    @Test func badRegistrationsAreNamed() async throws {
        let clock = ManualClock()
        let policy = {
            var policy = WebhookPolicy()
            policy.allowPrivate = true
            return policy
        }()
        try await withStore(.sqlite, clock: clock) { store in
            let core = try WebhookDeliveryTests.core(store, clock, policy: policy)
            try await buildApplication(core: core, logger: .init(label: "test")).serviceTest(.router) { client in
                for (body, expected) in [
                    (#"{"url":"http://127.0.0.1/hooks","events":["installed"]}"#, "uses http"),
                    (#"{"url":"ftp://127.0.0.1/hooks","events":["installed"]}"#, "must be an https URL"),
                    (#"{"url":"https://127.0.0.1/hooks","events":["installed","deleted"]}"#, #""events"[1]: deleted is not an event"#),
                    (#"{"url":"https://127.0.0.1/hooks","events":[]}"#, #""events" is empty"#),
                    (#"{"url":"https://127.0.0.1/hooks","events":["installed"],"secret":"short"}"#, "16 to 200 characters"),
                    (#"{"url":"https://user:pw@127.0.0.1/hooks","events":["installed"]}"#, "user name or password"),
                    (#"{"events":["installed"]}"#, #"give "url""#),
                ] {
                    let response = try await client.execute(
                        uri: "/api/v1/webhooks", method: .post, headers: WebhookDeliveryTests.bearer, body: ByteBuffer(string: body))
                    let message = WebhookSafetyTests.message(response.body)
                    #expect(response.status == .badRequest && message.contains(expected), "\(message)")
                }
                let unauthorized = try await client.execute(
                    uri: "/api/v1/webhooks", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"url":"https://127.0.0.1/hooks","events":["installed"]}"#))
                #expect(unauthorized.status == .unauthorized)
                #expect(try await core.webhooks.list().isEmpty)
            }
        }
    }

    /// Registered while private receivers were allowed, delivered by a node that does not allow them: refused at
    /// delivery time, kept owed with the reason, never sent.
    @Test func thePrivateCheckRunsAgainAtDelivery() async throws {
        let clock = ManualClock()
        let receiver = try await WebhookDeliveryTests.receiver(clock)
        defer { receiver.shutdown() }
        try await withStore(.sqlite, clock: clock) { store in
            let core = try WebhookDeliveryTests.core(store, clock)
            _ = try await core.webhooks.create(url: receiver.url, events: ["issued"], secret: WebhookDeliveryTests.secret)
            _ = try await store.insert(WebhookDeliveryTests.storedPass(unique("P")))
            var strict = WebhookPolicy()
            strict.allowHTTP = true
            let deliverer = WebhookDeliverer(store: store, policy: strict, logger: Logger(label: "test"), clock: clock.today)
            #expect(try await deliverer.round() == 1)
            #expect(receiver.received.isEmpty)
            clock.advance(by: .seconds(10))
            try await core.webhookDeliverer.drain()
            #expect(receiver.received.count == 1, "still owed: a node that allows it delivers it")
        }
    }

    /// A node claims deliveries and dies before settling them (its lease held): after a restart on the same
    /// database, nothing goes out while the lease holds, then every one goes out once.
    @Test(arguments: StoreKind.allCases)
    func aRestartMidDeliveryLosesNone(_ kind: StoreKind) async throws {
        let clock = ManualClock()
        let receiver = try await WebhookDeliveryTests.receiver(clock)
        defer { receiver.shutdown() }
        let url = try await offPool { Result { try kind.databaseURL() } }.get()
        let serials = (0..<5).map { _ in unique("R") }
        try await openPassStore(url: url, logger: Logger(label: "test.store"), clock: clock.today).whileRunning { store in
            let core = try WebhookDeliveryTests.core(store, clock)
            _ = try await core.webhooks.create(url: receiver.url, events: ["issued"], secret: WebhookDeliveryTests.secret)
            for serial in serials {
                _ = try await store.insert(WebhookDeliveryTests.storedPass(serial))
            }
            // The dying node's claim: leased to it, never settled.
            #expect(try await store.claimWebhookDeliveries(limit: 3, lease: .seconds(60)).count == 3)
        }
        try await openPassStore(url: url, logger: Logger(label: "test.store"), clock: clock.today).whileRunning { store in
            let core = try WebhookDeliveryTests.core(store, clock)
            try await core.webhookDeliverer.drain()
            #expect(receiver.received.count == 2, "the two it did not hold")
            clock.advance(by: .seconds(61))
            try await core.webhookDeliverer.drain()
            #expect(receiver.received.compactMap { $0.json["serialNumber"]?.stringValue }.sorted() == serials.sorted())
            #expect(receiver.acknowledged.count == 5 && receiver.duplicates == 0)
            #expect(receiver.received.allSatisfy { $0.signatureProblem == nil })
        }
    }
}
