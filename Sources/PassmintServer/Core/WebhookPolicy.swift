/// What webhooks may point at and how their deliveries are retried (`--webhooks-allow-http`,
/// `--webhooks-allow-private`).
public struct WebhookPolicy: Sendable, Equatable {
    /// Accept `http://` receivers (tests, a receiver beside the service); otherwise https only.
    public var allowHTTP = false
    /// Accept receivers whose name resolves to a loopback, private, link-local or otherwise non-public address (tests,
    /// in-cluster receivers); otherwise they are refused when registered and again before every delivery.
    public var allowPrivate = false
    /// How long a delivery is retried after its event before it is given up.
    public var retryWindow: Duration = .seconds(3 * 86_400)
    /// How long a claim on deliveries holds: what a node that died held goes out again after this.
    public var lease: Duration = .seconds(60)
    /// How long a receiver has to answer one delivery.
    public var timeout: Duration = .seconds(10)
    /// The most webhooks registered at once: each event is owed to every webhook wanting it, in the transaction that
    /// writes the event, so their number multiplies the cost of every change.
    public var maximumWebhooks = 50

    public init() {}
}
