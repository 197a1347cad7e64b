import HTTPTypes
import Hummingbird

/// `X-Content-Type-Options: nosniff` on every answer the router gives, errors included: a browser never reads a JSON
/// error (which may echo what a caller sent) or a download as something else, such as HTML.
struct NoSniffMiddleware<Context: RequestContext>: RouterMiddleware {
    static var name: HTTPField.Name { HTTPField.Name("X-Content-Type-Options")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[Self.name] = "nosniff"
        return response
    }
}
