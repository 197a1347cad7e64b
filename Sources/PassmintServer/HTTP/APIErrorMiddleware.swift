import HTTPTypes
import Hummingbird
import NIOCore

/// Every refusal of the issuing API is the JSON error envelope (docs/service.md, "Errors"): a ``ServiceFailure`` with
/// nothing more to say (a 404 of a lookup) gets its status's message, and the framework's refusal of a body over the
/// limit (an empty 413) becomes a `too-large` failure that says so.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The largest body the routes read (``ServerConfiguration/maxBodySize``), named in a 413's message.
    let bodyLimit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch var failure as ServiceFailure where failure.message == nil {
            failure.message = Self.message(failure.status, path: request.uri.path)
            throw failure
        } catch is NIOTooManyBytesError {
            throw ServiceFailure(.contentTooLarge, "the body is over the \(bodyLimit) bytes this service takes: send a smaller one")
        }
    }

    /// What a refusal with no message of its own says.
    static func message(_ status: HTTPResponse.Status, path: String) -> String {
        switch status {
        case .notFound: "nothing at \(path): check the names and identifiers in the path"
        case .unauthorized: "give the API key as Authorization: Bearer <key>"
        default: "\(status.reasonPhrase): \(path)"
        }
    }
}
