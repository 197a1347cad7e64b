import Hummingbird

/// Checks the issuing API's key on every route of `/api/v1`: `Authorization: Bearer <key>`, compared in constant
/// time; 401 otherwise, and always when the service has no key.
struct APIKeyMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The keys accepted: the API key, and for `/metrics` the read-only metrics token too.
    let apiKeys: [String]

    init(apiKey: String?) { apiKeys = apiKey.map { [$0] } ?? [] }
    init(apiKeys: [String]) { self.apiKeys = apiKeys }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw ServiceFailure.unauthorized("give the API key as Authorization: Bearer <key>")
        }
        let given = String(header.dropFirst(7))
        // Every key compared, in constant time each, so the time does not tell which one nearly matched.
        let matched = apiKeys.map { TokenComparison.matches(given, $0) }.contains(true)
        guard matched else { throw ServiceFailure.unauthorized("give the API key as Authorization: Bearer <key>") }
        return try await next(request, context)
    }
}
