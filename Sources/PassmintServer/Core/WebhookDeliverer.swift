import AsyncHTTPClient
package import Foundation
package import Logging
import NIOCore
import NIOHTTP1
import Passmint
package import PassmintStore
import ServiceLifecycle

/// Delivers what the store owes webhooks (`webhook_deliveries`, written in each event's transaction), in the
/// background: each round claims a batch for a lease (so several nodes share one PostgreSQL outbox, and what a killed
/// node held goes out again when its lease ends), checks each receiver's address again, POSTs each event as JSON
/// signed with `Passmint-Signature` (`WebhookSignature`) and carrying `Passmint-Event-Id`, and settles the batch in
/// one write: a 2xx is done, anything else is retried with a back-off until ``WebhookPolicy/retryWindow`` has passed.
/// Delivery is at least once: receivers dedupe by the event id. Its HTTP clients live as long as it does
/// (``WebhookClients``), so a receiver's connections are reused from round to round.
package final class WebhookDeliverer: Service, Sendable {
    let store: any PassStore
    let policy: WebhookPolicy
    let logger: Logger
    let batchSize: Int
    /// Rounds while they find deliveries, up to `concurrentRounds` at once, and every `idlePoll` when they do not.
    let loop: QueueLoop
    /// The time signatures and retries are computed from: the wall clock, or a test's (with the store's).
    let clock: @Sendable () -> Date
    /// Kept across rounds, so connections to receivers are reused.
    private let clients = WebhookClients()

    package init(
        store: any PassStore, policy: WebhookPolicy, logger: Logger, batchSize: Int = 100, concurrentRounds: Int = 2,
        idlePoll: Duration = .seconds(1), ready: StoreReadiness? = nil, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.policy = policy
        self.logger = logger
        self.batchSize = batchSize
        loop = QueueLoop(
            name: "the webhook deliverer", logger: logger, idlePoll: idlePoll, ready: ready, store: store,
            concurrentRounds: concurrentRounds)
        self.clock = clock
    }

    /// Delivers until graceful shutdown, then closes the connections to the receivers.
    package func run() async throws {
        await loop.run(lastRound: false) { try await self.round() }
        await shutdown()
    }

    /// Closes the connections to the receivers (at the end of ``run()``; a test that only calls rounds may call it).
    package func shutdown() async { await clients.shutdown() }

    /// Claims, delivers and settles one batch; the number claimed.
    @discardableResult
    package func round() async throws -> Int {
        let claimed = try await store.claimWebhookDeliveries(limit: batchSize, lease: policy.lease)
        guard !claimed.isEmpty else { return 0 }
        let urls = Set(claimed.map(\.url))
        let (addresses, refusals) = await Self.connections(to: urls, policy: policy)
        // Each receiver's client looked up once a round, not once a delivery.
        var receivers: [String: HTTPClient] = [:]
        for url in urls {
            guard let host = try? WebhookAddress.parse(url, policy: policy).host, let address = addresses[host] else { continue }
            receivers[url] = clients.client(host: host, address: address)
        }
        let outcomes = await withTaskGroup(of: (Owed<WebhookDelivery>, String?).self) { group in
            for delivery in claimed {
                let refusal = refusals[delivery.url]
                let client = receivers[delivery.url]
                group.addTask {
                    if let refusal { return (delivery, refusal) }
                    guard let client else { return (delivery, "the deliverer is shutting down") }
                    return (delivery, await self.deliver(delivery.item, client: client))
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let now = clock()
        var settlement = OutboxSettlement<WebhookDelivery>()
        for (delivery, failure) in outcomes {
            guard let failure else {
                settlement.add(delivery, .done)
                continue
            }
            let window = Double(policy.retryWindow.components.seconds)
            let wait = Double(QueueLoop.backOff(afterAttempts: delivery.attempts, first: 10, most: 3600).components.seconds)
            if now.addingTimeInterval(wait).timeIntervalSince(delivery.event.at) > window {
                settlement.add(delivery, .givenUp, note: failure)
            } else {
                settlement.add(delivery, .retry(at: now.addingTimeInterval(wait)), note: failure)
            }
        }
        try await store.settleWebhookDeliveries(settlement)
        let failed = settlement.rows.filter { $0.outcome != .done }
        if let reason = failed.first?.note {
            logger.warning(
                "webhook deliveries failed; they are tried again",
                metadata: ["failed": "\(failed.count)", "givenUp": "\(settlement.givenUp.count)", "reason": "\(reason)"])
        }
        return claimed.count
    }

    /// How a round reaches `urls`: each receiver's name resolved and checked once (``WebhookAddress``), and the
    /// address checked for each host, for the client to connect to (its DNS override), so that a name resolving
    /// elsewhere a moment later (DNS rebinding) gains nothing; with why each refused URL is refused.
    static func connections(to urls: Set<String>, policy: WebhookPolicy) async -> (addresses: [String: String], refusals: [String: String])
    {
        var addresses: [String: String] = [:]
        var refusals: [String: String] = [:]
        for url in urls.sorted() {
            do {
                let (_, host, address) = try await WebhookAddress.check(url, policy: policy)
                if addresses[host] == nil { addresses[host] = address }
            } catch {
                refusals[url] = error.message ?? "\(error)"
            }
        }
        return (addresses, refusals)
    }

    /// Delivers every delivery that is due now, round after round (``QueueLoop/drain(_:due:)``), until a round finds
    /// none: a delivery due behind its pass's earlier one, or under another node's lease, is not waited for.
    package func drain() async throws {
        try await QueueLoop.drain({ try await round() }, due: { 0 })
    }

    /// The body of a delivery: the event, with its id.
    static func body(_ delivery: WebhookDelivery) -> [UInt8] {
        let event = delivery.event
        let stamp = { (date: Date) in date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }
        var object: JSONObject = [
            "id": .string(delivery.eventId), "type": .string(event.kind.rawValue), "webhook": .string(delivery.webhookId),
            "createdAt": .string(stamp(event.at)), "passTypeIdentifier": .string(event.passTypeIdentifier),
            "serialNumber": .string(event.serialNumber), "template": .string(event.template),
        ]
        if let hash = event.deviceHash { object["deviceHash"] = .string(hash) }
        if let change = event.changeAt { object["changeAt"] = .string(stamp(change)) }
        return Array(JSONWriter.string(.object(object), style: .compact).utf8)
    }

    /// POSTs one delivery; nil when the receiver answered 2xx, else why not.
    private func deliver(_ delivery: WebhookDelivery, client: HTTPClient) async -> String? {
        let body = Self.body(delivery)
        let request = SignedPost.request(
            url: delivery.url, body: body, secret: delivery.secret, at: clock(), userAgent: "passmint-webhooks",
            headers: [("Passmint-Event-Id", delivery.eventId)])
        do {
            let response = try await client.execute(request, timeout: .seconds(policy.timeout.components.seconds))
            _ = try? await response.body.collect(upTo: 64 * 1024)
            return (200..<300).contains(response.status.code) ? nil : "the receiver answered HTTP \(response.status.code)"
        } catch {
            return "the receiver could not be reached: \(error)"
        }
    }
}
