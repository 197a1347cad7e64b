public import HTTPTypes
public import Hummingbird

/// A request the service refuses: the HTTP status it answers with, and a message that says what to do next.
/// Routes throw it as it is; Hummingbird writes it as `{"error": {"message": …}}`.
public struct ServiceFailure: HTTPResponseError, Equatable, CustomStringConvertible {
    public var status: HTTPResponse.Status
    public var message: String?
    /// Headers the answer carries (a 412's current `ETag`).
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ message: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    public static func badRequest(_ message: String) -> ServiceFailure { ServiceFailure(.badRequest, message) }
    public static func unauthorized(_ message: String? = nil) -> ServiceFailure { ServiceFailure(.unauthorized, message) }
    public static let notFound = ServiceFailure(.notFound)
    public static func conflict(_ message: String) -> ServiceFailure { ServiceFailure(.conflict, message) }
    /// A change made `If-Match` a version the pass is no longer at: 412, with the version it is at (`tag`, when known)
    /// in the message and the `ETag` header. `what` names the document ("pass", "order").
    public static func preconditionFailed(tag: Int64?, what: String = "pass") -> ServiceFailure {
        let now = tag.map { " (it is at ETag \"\($0)\")" } ?? ""
        var headers: HTTPFields = [:]
        if let tag { headers[.eTag] = "\"\(tag)\"" }
        return ServiceFailure(
            .preconditionFailed,
            "the \(what) changed since the version named in If-Match\(now): GET it again, redo the change and send it with the new ETag",
            headers: headers)
    }
    /// A pass that kept changing while a change to it was being made (100 times): 409.
    public static func busy(_ serialNumber: String) -> ServiceFailure {
        .conflict("pass \(serialNumber) kept changing while this change was being made; nothing was changed: send it again")
    }
    /// The request is well formed but does not make a valid pass (a lint error, a missing placeholder, a template
    /// that does not load).
    public static func unprocessable(_ message: String) -> ServiceFailure { ServiceFailure(.unprocessableContent, message) }

    /// The service cannot keep what it was given (its disk): 500, with what failed.
    public static func storage(_ message: String) -> ServiceFailure { ServiceFailure(.internalServerError, message) }

    /// The same failure, its message prefixed (`passes[2]: …`).
    func prefixed(_ prefix: String) -> ServiceFailure {
        ServiceFailure(status, message.map { prefix + $0 }, headers: headers)
    }

    public var description: String { "\(status.code) \(message ?? status.reasonPhrase)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let error = message.map { HTTPError(status, headers: headers, message: $0) } ?? HTTPError(status, headers: headers)
        return try error.response(from: request, context: context)
    }
}
