import Foundation
import HTTPTypes
import NIOSSL
import Passmint
import PassmintHTTP
import PassmintPay

/// Hands a decrypted payment to the configured processor (`--apple-pay-processor-url`) and reads its decision. The
/// request is a POST of JSON signed with `Passmint-Signature` under the processor secret, exactly as webhook deliveries
/// are (``WebhookSignature``), with `Idempotency-Key: <transactionId>` so that a processor asked again (a retry after
/// a lost answer) authorizes once. Its HTTP client lives as long as the service; redirects are not followed.
final class PaymentProcessorClient: Sendable {
    /// What the processor decided.
    enum Decision: Sendable, Equatable {
        case approved(reference: String?)
        case declined(reason: String)
    }

    private let processor: ApplePayConfiguration.Processor
    private let timeout: Duration
    private let client: KeepAliveHTTPClient
    private let clock: @Sendable () -> Date

    init(processor: ApplePayConfiguration.Processor, timeout: Duration, clock: @escaping @Sendable () -> Date) {
        self.processor = processor
        self.timeout = timeout
        self.clock = clock
        var tls = TLSConfiguration.makeClientConfiguration()
        if !processor.trustRoots.isEmpty { tls.additionalTrustRoots = [.certificates(processor.trustRoots)] }
        client = KeepAliveHTTPClient(configuration: .init(connectionsPerDestination: 4, maxBodyBytes: 64 * 1024, tls: tls))
    }

    /// The request's body: the transaction id, the template bought, and the payment data in full (the processor needs
    /// the account number and cryptogram to authorize).
    static func body(_ payment: DecryptedPayment, template: String) -> [UInt8] {
        let object: JSONObject = [
            "transactionId": .string(payment.transactionId), "template": .string(template), "payment": payment.json(reveal: true),
        ]
        return Array(JSONWriter.string(.object(object), style: .compact).utf8)
    }

    /// Asks the processor. A 2xx answer `{"approved": true, "reference": …}` approves, `{"approved": false, "reason":
    /// …}` declines; anything else (no answer in time, another status, another body) is a 502 that leaves the payment
    /// received: the same request sent again asks again.
    func authorize(_ payment: DecryptedPayment, template: String) async throws(ServiceFailure) -> Decision {
        let body = Self.body(payment, template: template)
        let request = SignedPost.request(
            url: processor.url.absoluteString, body: body, secret: processor.secret, at: clock(), userAgent: "passmint-payments",
            headers: [("Idempotency-Key", payment.transactionId)])
        let status: Int
        let answer: [UInt8]
        do {
            let response = try await client.execute(request, timeout: .seconds(timeout.components.seconds))
            status = response.status
            answer = response.body
        } catch {
            throw Self.failed("could not be reached within \(timeout): \(error)")
        }
        guard (200..<300).contains(status) else { throw Self.failed("answered HTTP \(status)") }
        guard let object = (try? JSONParser.value(answer))?.objectValue,
            let approved = object["approved"]?.boolValue
        else {
            throw Self.failed("answered \(status) without {\"approved\": true|false}")
        }
        if approved { return .approved(reference: object["reference"]?.stringValue) }
        return .declined(reason: object["reason"]?.stringValue ?? "declined by the payment processor")
    }

    private static func failed(_ what: String) -> ServiceFailure {
        ServiceFailure(
            .badGateway,
            "the payment processor \(what): nothing was issued and the payment stays received; send the same request again to ask the processor again",
            code: "payment-processor-failed")
    }

    func shutdown() async { await client.shutdown() }
}
