import Hummingbird

/// Checks the issuing API's key on every route of `/api/v1`: `Authorization: Bearer <key>`, compared in constant
/// time; 401 otherwise, and always when the service has no key.
struct APIKeyMiddleware<Context: RequestContext>: RouterMiddleware {
    let apiKey: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let apiKey, let header = request.headers[.authorization], header.hasPrefix("Bearer "),
            TokenComparison.matches(String(header.dropFirst(7)), apiKey)
        else { throw ServiceFailure.unauthorized("give the API key as Authorization: Bearer <key>") }
        return try await next(request, context)
    }
}
