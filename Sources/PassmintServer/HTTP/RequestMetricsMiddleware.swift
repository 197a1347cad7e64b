import Hummingbird

/// Counts every request the router answers, by route pattern, method and status, with its latency
/// (``ServiceMetrics``). Requests answered from memory by ``DeviceFastPath`` never reach the router; they are counted
/// apart.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        func record(_ status: Int) {
            metrics.request(
                route: context.endpointPath ?? "unmatched", method: request.method.rawValue, status: status,
                duration: ContinuousClock.now - start)
        }
        do {
            let response = try await next(request, context)
            record(response.status.code)
            return response
        } catch let error as any HTTPResponseError {
            record(error.status.code)
            throw error
        } catch {
            record(500)
            throw error
        }
    }
}
