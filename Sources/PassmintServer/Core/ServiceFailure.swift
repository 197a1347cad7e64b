public import HTTPTypes
public import Hummingbird
public import PassmintStore

/// A request the service refuses: the HTTP status it answers with, and a message that says what to do next.
/// Routes throw it as it is; Hummingbird writes it as `{"error": {"message": …}}`.
public struct ServiceFailure: HTTPResponseError, Equatable, CustomStringConvertible {
    public var status: HTTPResponse.Status
    public var message: String?

    public init(_ status: HTTPResponse.Status, _ message: String? = nil) {
        self.status = status
        self.message = message
    }

    public static func badRequest(_ message: String) -> ServiceFailure { ServiceFailure(.badRequest, message) }
    public static func unauthorized(_ message: String? = nil) -> ServiceFailure { ServiceFailure(.unauthorized, message) }
    public static let notFound = ServiceFailure(.notFound)
    public static func conflict(_ message: String) -> ServiceFailure { ServiceFailure(.conflict, message) }
    /// A change made `If-Match` a version the pass is no longer at (`current`, when known): 412.
    public static func preconditionFailed(_ current: StoredPass?) -> ServiceFailure {
        let now = current.map { " (it is at ETag \"\($0.updateTag)\")" } ?? ""
        return ServiceFailure(
            .preconditionFailed,
            "the pass changed since the version named in If-Match\(now): GET it again, redo the change and send it with the new ETag")
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
        ServiceFailure(status, message.map { prefix + $0 })
    }

    public var description: String { "\(status.code) \(message ?? status.reasonPhrase)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let error = message.map { HTTPError(status, message: $0) } ?? HTTPError(status)
        return try error.response(from: request, context: context)
    }
}
