package import Foundation
package import Logging
import Passmint
import PassmintHTTP
package import PassmintStore
import ServiceLifecycle

/// Delivers what the store owes webhooks (`webhook_deliveries`, written in each event's transaction), in the
/// background: each round claims a batch for a lease (so several nodes share one PostgreSQL outbox, and what a killed
/// node held goes out again when its lease ends), checks each receiver's address again, POSTs each event as JSON
/// signed with `Passmint-Signature` (`WebhookSignature`) and carrying `Passmint-Event-Id`, and settles the batch in
/// one write: a 2xx is done, anything else is retried with a back-off until ``WebhookPolicy/retryWindow`` has passed.
/// Delivery is at least once: receivers dedupe by the event id. Its HTTP client lives as long as it does: a round's
/// deliveries go out at once, up to 8 keep-alive connections to each receiver's checked address, pipelined (up to 32
/// on a connection), and those connections carry the next rounds. Four rounds run at once while there is work: a
/// round waits mostly on its two commits (claim, settle), which the store's group commit shares between rounds. A delivery whose answer was not read (the
/// connection closed first) is not done: it is tried again like a failure.
package final class WebhookDeliverer: Service, Sendable {
    let store: any PassStore
    let policy: WebhookPolicy
    let logger: Logger
    let batchSize: Int
    /// Rounds while they find deliveries, up to `concurrentRounds` at once, and every `idlePoll` when they do not.
    let loop: QueueLoop
    /// The time signatures and retries are computed from: the wall clock, or a test's (with the store's).
    let clock: @Sendable () -> Date
    /// Kept across rounds, so connections to receivers are reused; redirects are not followed, an answer's body is
    /// read up to 64 KiB.
    private let client = KeepAliveHTTPClient(
        configuration: .init(connectionsPerDestination: 8, pipelineDepth: 32, maxBodyBytes: 64 * 1024))

    package init(
        store: any PassStore, policy: WebhookPolicy, logger: Logger, batchSize: Int = 100, concurrentRounds: Int = 4,
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
    package func shutdown() async { await client.shutdown() }

    /// Claims, delivers and settles one batch; the number claimed.
    @discardableResult
    package func round() async throws -> Int {
        let claimed = try await store.claimWebhookDeliveries(limit: batchSize, lease: policy.lease)
        guard !claimed.isEmpty else { return 0 }
        let urls = Set(claimed.map(\.url))
        let (addresses, refusals) = await Self.connections(to: urls, policy: policy)
        // Each receiver's address looked up once a round, not once a delivery; the round's deliveries sent at once.
        var receivers: [String: String] = [:]
        for url in urls {
            guard let host = try? WebhookAddress.parse(url, policy: policy).host, let address = addresses[host] else { continue }
            receivers[url] = address
        }
        var outcomes: [(Owed<WebhookDelivery>, String?)] = []
        var sent: [Owed<WebhookDelivery>] = []
        var requests: [KeepAliveHTTPClient.Request] = []
        let at = clock()
        for delivery in claimed {
            if let refusal = refusals[delivery.url] {
                outcomes.append((delivery, refusal))
            } else if let address = receivers[delivery.url] {
                sent.append(delivery)
                requests.append(Self.request(delivery.item, at: at, address: address))
            } else {
                outcomes.append((delivery, "the receiver's address could not be checked"))
            }
        }
        let answers = await client.execute(requests, timeout: .seconds(policy.timeout.components.seconds))
        for (delivery, answer) in zip(sent, answers) { outcomes.append((delivery, Self.failure(answer))) }
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

    /// The signed POST of one delivery, to the receiver's checked address.
    static func request(_ delivery: WebhookDelivery, at time: Date, address: String) -> KeepAliveHTTPClient.Request {
        SignedPost.request(
            url: delivery.url, body: body(delivery), secret: delivery.secret, at: time, userAgent: "passmint-webhooks",
            headers: [("Passmint-Event-Id", delivery.eventId)], address: address)
    }

    /// Nil when the receiver answered 2xx (its body, read up to 64 KiB, does not matter: a larger one still counts),
    /// else why the delivery failed.
    static func failure(_ answer: Result<KeepAliveHTTPClient.Response, KeepAliveHTTPError>) -> String? {
        let status: Int
        switch answer {
        case .success(let response): status = response.status
        case .failure(let error) where error.code == .bodyTooLarge && error.status != nil: status = error.status ?? 0
        case .failure(let error): return "the receiver could not be reached: \(error)"
        }
        return (200..<300).contains(status) ? nil : "the receiver answered HTTP \(status)"
    }
}
