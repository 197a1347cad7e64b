import AsyncHTTPClient
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import Passmint

/// Merchant validation for Apple Pay on the web (`POST /pay/session`): the page's `validationURL`, once
/// ``ApplePayGateway`` allows it, is sent `{merchantIdentifier, displayName, initiative: "web", initiativeContext}`
/// with the Merchant Identity certificate (mutual TLS); Apple's merchant session is answered as it came, for the page's
/// `completeMerchantValidation`. Redirects are not followed; Apple has ``MerchantIdentityConfiguration/timeout`` to answer.
package final class MerchantSessionService: Sendable {
    let identity: MerchantIdentityConfiguration
    private let client: HTTPClient
    private let logger: Logger

    init(identity: MerchantIdentityConfiguration, logger: Logger) {
        self.identity = identity
        self.logger = logger
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateChain = identity.certificateChain.map { .certificate($0) }
        tls.privateKey = .privateKey(identity.privateKey)
        if let gateway = identity.testOnlyGateway { tls.trustRoots = .certificates(gateway.trustRoots) }
        client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow))
    }

    /// The merchant session Apple gives for `validationURL` (its JSON bytes), or a refusal: 400 for a URL that is not
    /// Apple's, 502 when Apple refuses or cannot be reached.
    package func session(validationURL: String) async throws(ServiceFailure) -> [UInt8] {
        var url = try ApplePayGateway.check(validationURL)
        if let gateway = identity.testOnlyGateway, let redirected = URL(string: gateway.url.absoluteString + url.path) { url = redirected }
        let body: JSONObject = [
            "merchantIdentifier": .string(identity.merchantIdentifier), "displayName": .string(identity.displayName),
            "initiative": "web", "initiativeContext": .string(identity.domain),
        ]
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "passmint-apple-pay")
        request.body = .bytes(ByteBuffer(bytes: JSONWriter.data(.object(body), style: .compact)))
        let status: UInt
        let answer: [UInt8]
        do {
            let response = try await client.execute(request, timeout: .seconds(identity.timeout.components.seconds))
            status = response.status.code
            answer = Array(try await response.body.collect(upTo: 64 * 1024).readableBytesView)
        } catch {
            logger.warning("Apple Pay merchant validation failed", metadata: ["host": "\(url.host ?? "")", "error": "\(error)"])
            throw Self.failed("Apple's \(url.host ?? "gateway") could not be reached within \(identity.timeout): \(error)")
        }
        guard status == 200, (try? JSONParser.value(answer).objectValue) != nil else {
            let said = (try? JSONParser.value(answer))?["statusMessage"]?.stringValue.map { ": \(MessageText.cut($0, limit: 200))" } ?? ""
            logger.warning("Apple Pay merchant validation refused", metadata: ["host": "\(url.host ?? "")", "status": "\(status)"])
            throw Self.failed("Apple answered HTTP \(status)\(said)")
        }
        return answer
    }

    private static func failed(_ what: String) -> ServiceFailure {
        ServiceFailure(
            .badGateway,
            "the merchant validation failed: \(what). Check the Merchant Identity certificate and the domain registered for the merchant ID",
            code: "apple-pay-session-failed")
    }

    func shutdown() async { try? await client.shutdown() }

    deinit {
        let client = client
        Task { try? await client.shutdown() }
    }
}
