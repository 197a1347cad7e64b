import Hummingbird
import Passmint
import PassmintPay
import PassmintStore

/// `POST /api/v1/payments` (behind ``APIKeyMiddleware``): the merchant's back end posts an Apple Pay token and what it
/// buys, `{"token": …, "template": …, "data": {…}}`; ``PaymentService`` verifies, decrypts, has it approved and issues
/// the pass; 201 with the pass's metadata and links, as issuing answers, and the payment (masked).
struct PaymentRoutes {
    let core: ServiceCore

    func register(on api: RouterGroup<ServiceRequestContext>) {
        api.post("payments") { request, context in try await pay(request, context) }
    }

    private func pay(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        guard let payments = core.payments else {
            throw ServiceFailure.applePayNotConfigured("--apple-pay-merchant-cert and --apple-pay-merchant-key")
        }
        // A token is a few kilobytes; the body limit may be smaller for issuing alone.
        let object = try await RouteSupport.jsonObject(request, limit: max(core.configuration.maxBodySize, 64 * 1024))
        guard let token = object["token"], token.objectValue != nil || token.stringValue != nil else {
            throw ServiceFailure.badRequest(
                "give \"token\": the payment token as the app or web page sends it (PKPaymentToken, its paymentData, or paymentData as base64)",
                code: "payment-token-missing")
        }
        guard let template = object["template"]?.stringValue else { throw ServiceFailure.badRequest("give \"template\": \"<name>\"") }
        let data = object["data"] ?? .object(JSONObject())
        guard let data = data.objectValue else { throw ServiceFailure.badRequest("\"data\" must be an object") }
        let images = object["images"]
        guard images == nil || images?.objectValue != nil else {
            throw ServiceFailure.badRequest("\"images\" must be an object: {\"thumbnail@2x\": \"<base64 PNG>\"}")
        }
        let reveal = object["reveal"]?.boolValue ?? false
        if reveal {
            guard payments.processor == nil else {
                throw ServiceFailure.badRequest(
                    "\"reveal\" is for a service without a payment processor: the processor was given the payment data in full",
                    code: "payment-reveal-refused")
            }
            guard request.headers[.idempotencyKey] == nil else {
                throw ServiceFailure.badRequest(
                    "\"reveal\" cannot be combined with an Idempotency-Key: the kept answer would hold the payment data in the database",
                    code: "payment-reveal-refused")
            }
        }
        let tokenBytes = Array(JSONWriter.string(token, style: .compact).utf8)
        let paid = try await payments.pay(token: tokenBytes, template: template, data: data, images: images?.objectValue)
        let pass = paid.issued.pass
        var answer = PassMetadataJSON.object(
            PassMetadata(pass: pass, data: paid.issued.data, registrations: 0), publicURL: core.configuration.publicURL,
            links: core.sharing.links(for: pass))
        var payment: JSONObject = [
            "transactionId": .string(paid.payment.transactionId), "processed": .bool(paid.processed),
            "data": paid.payment.json(reveal: reveal),
        ]
        if let reference = paid.reference { payment["reference"] = .string(reference) }
        answer["payment"] = .object(payment)
        var response = RouteSupport.json(.created, .object(answer))
        response.headers[.location] = "/api/v1/passes/\(pass.passTypeIdentifier)/\(pass.serialNumber)"
        response.headers[.eTag] = EntityTags.value(pass)
        return response
    }
}
