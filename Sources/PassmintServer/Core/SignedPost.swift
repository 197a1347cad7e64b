import Foundation
import NIOHTTP1
import Passmint
import PassmintHTTP

/// The one way the service POSTs JSON it signs: webhook deliveries (``WebhookDeliverer``) and payments handed to the
/// processor (``PaymentProcessorClient``), both over a ``KeepAliveHTTPClient``. The body is signed with
/// `Passmint-Signature` (``WebhookSignature``) under the receiver's secret at `time`, so that both kinds of receiver
/// check it the same way. `address`: the one to connect to (a webhook's checked address).
enum SignedPost {
    static func request(
        url: String, body: [UInt8], secret: String, at time: Date, userAgent: String, headers: [(name: String, value: String)],
        address: String? = nil
    ) -> KeepAliveHTTPClient.Request {
        var fields: [(name: String, value: String)] = [("Content-Type", "application/json"), ("User-Agent", userAgent)]
        fields += headers
        fields.append((WebhookSignature.headerName, WebhookSignature.header(payload: body, secret: secret, timestamp: time)))
        return KeepAliveHTTPClient.Request(.POST, url, headers: fields, body: body, address: address)
    }
}
