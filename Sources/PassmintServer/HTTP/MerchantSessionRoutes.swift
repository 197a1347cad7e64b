import Hummingbird
import Passmint

/// `POST /pay/session` (public: the web page's script calls it from `onvalidatemerchant`): `{"validationURL": …}` →
/// Apple's merchant session, for `completeMerchantValidation` (``MerchantSessionService``).
struct MerchantSessionRoutes {
    let core: ServiceCore

    func register(on router: Router<ServiceRequestContext>) {
        router.post("/pay/session") { request, context in try await session(request, context) }
    }

    private func session(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        guard let sessions = core.merchantSessions else { throw ServiceFailure.applePayNotConfigured("--apple-pay-merchant-identity") }
        let object = try await RouteSupport.jsonObject(request, limit: 4096)
        guard let url = object["validationURL"]?.stringValue else {
            throw ServiceFailure.badRequest(
                "give {\"validationURL\": \"<the URL onvalidatemerchant received>\"}", code: "invalid-validation-url")
        }
        return RouteSupport.bytes(try await sessions.session(validationURL: url), type: "application/json")
    }
}
