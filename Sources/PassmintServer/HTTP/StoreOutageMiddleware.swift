import HTTPTypes
import Hummingbird

/// While the store is out of reach (``StoreReachability``), a request that needs it is answered at once with 503,
/// `Retry-After: 1` and a JSON message, instead of waiting for a connection; a request that fails because the store
/// went away meanwhile gets the same answer, not a 500 with an empty body. `/health`, `/ready`, `/metrics` and the API's
/// description need no store and always go on.
struct StoreOutageMiddleware<Context: RequestContext>: RouterMiddleware {
    let reachability: StoreReachability

    static var unavailable: ServiceFailure {
        ServiceFailure(
            .serviceUnavailable, "the service's database is out of reach for the moment: send the request again in a second",
            headers: [.retryAfter: "1"])
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        switch request.uri.path {
        case "/health", "/ready", "/metrics", OpenAPIRoute.path: return try await next(request, context)
        default: break
        }
        guard reachability.isReachable else { throw Self.unavailable }
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            if await reachability.isOutage(error) { throw Self.unavailable }
            throw error
        }
    }
}
