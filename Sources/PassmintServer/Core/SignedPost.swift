import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Passmint

/// The one way the service POSTs JSON it signs: webhook deliveries (``WebhookDeliverer``) and payments handed to the
/// processor (``PaymentProcessorClient``). The body is signed with `Passmint-Signature` (``WebhookSignature``) under
/// the receiver's secret at `time`, so that both kinds of receiver check it the same way.
enum SignedPost {
    static func request(
        url: String, body: [UInt8], secret: String, at time: Date, userAgent: String, headers: [(name: String, value: String)]
    ) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: userAgent)
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        request.headers.add(
            name: WebhookSignature.headerName, value: WebhookSignature.header(payload: body, secret: secret, timestamp: time))
        request.body = .bytes(ByteBuffer(bytes: body))
        return request
    }
}
