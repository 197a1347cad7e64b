package import Foundation
package import HTTPTypes
package import Hummingbird
import Passmint

/// A request the service refuses: the HTTP status it answers with, a stable machine code, a message that says what
/// to do next, and, when the data breaks several rules, every one of them (``Problem``). Routes throw it as it is;
/// it is written as `{"error": {"code": …, "message": …, "problems": [{"code", "field", "message"}, …]}}`
/// (docs/service.md, "Errors"), or as an empty body when it has no message.
package struct ServiceFailure: HTTPResponseError, Equatable, CustomStringConvertible {
    package var status: HTTPResponse.Status
    /// What kind of refusal this is, for programs (`unknown-template`, `invalid-pass`, `not-found`, …): compare codes,
    /// not messages. By default the status's (``defaultCode(for:)``).
    package var code: String
    package var message: String?
    /// Every rule the request's data breaks, each naming the data key it is about (`field`) when one is: what a
    /// shop's form shows beside its inputs. Empty for a refusal that is not about the data's values.
    package var problems: [Problem]
    /// Headers the answer carries (a 412's current `ETag`).
    package var headers: HTTPFields

    /// One rule the data breaks.
    package struct Problem: Sendable, Equatable, Encodable {
        /// The rule (`field-number-style`, `placeholder-missing`, …), as `passmint lint` names it.
        package var code: String
        /// The key of `data` the caller sent whose value breaks it; nil when no single key does.
        package var field: String?
        package var message: String

        package init(code: String, field: String?, message: String) {
            self.code = code
            self.field = field
            self.message = message
        }

        private enum CodingKeys: String, CodingKey { case code, field, message }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(code, forKey: .code)
            try container.encode(field, forKey: .field)  // null when no key is concerned: the member is always there
            try container.encode(message, forKey: .message)
        }
    }

    package init(
        _ status: HTTPResponse.Status, _ message: String? = nil, code: String? = nil, problems: [Problem] = [], headers: HTTPFields = [:]
    ) {
        self.status = status
        self.code = code ?? Self.defaultCode(for: status)
        self.message = message
        self.problems = problems
        self.headers = headers
    }

    /// The code of a refusal nothing more specific names: its status's meaning.
    package static func defaultCode(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: "bad-request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "not-found"
        case 409: "conflict"
        case 410: "gone"
        case 412: "precondition-failed"
        case 413: "too-large"
        case 422: "invalid-data"
        case 429: "too-many-requests"
        case 500: "storage-failed"
        case 501: "not-implemented"
        case 503: "unavailable"
        case 507: "insufficient-storage"
        default: "http-\(status.code)"
        }
    }

    package static func badRequest(_ message: String, code: String? = nil) -> ServiceFailure {
        ServiceFailure(.badRequest, message, code: code)
    }
    package static func unauthorized(_ message: String? = nil) -> ServiceFailure { ServiceFailure(.unauthorized, message) }
    package static let notFound = ServiceFailure(.notFound)
    package static func conflict(_ message: String, code: String? = nil) -> ServiceFailure {
        ServiceFailure(.conflict, message, code: code)
    }
    /// A change made `If-Match` a version the pass is no longer at: 412, with the version it is at (`tag`, when known)
    /// in the message and the `ETag` header. `what` names the document ("pass", "order").
    package static func preconditionFailed(tag: Int64?, what: String = "pass") -> ServiceFailure {
        let now = tag.map { " (it is at ETag \"\($0)\")" } ?? ""
        var headers: HTTPFields = [:]
        if let tag { headers[.eTag] = "\"\(tag)\"" }
        return ServiceFailure(
            .preconditionFailed,
            "the \(what) changed since the version named in If-Match\(now): GET it again, redo the change and send it with the new ETag",
            headers: headers)
    }
    /// A pass (or an order) that kept changing while a change to it was being made (``DocumentChange/attempts`` times): 409.
    static func busy(_ identifier: String, _ kind: WalletWebService.Kind = .pass) -> ServiceFailure {
        .conflict(
            "\(kind.rawValue) \(identifier) kept changing while this change was being made; nothing was changed: send it again",
            code: "busy")
    }
    /// A change to a pass that was erased (its data removed at its holder's request, ``UpdateService/erase(passTypeIdentifier:serialNumber:ifMatch:)``):
    /// 410 `pass-erased`. Its row stays only so that its serial is not issued again.
    package static func erased(_ serialNumber: String, at erasedAt: Date) -> ServiceFailure {
        ServiceFailure(
            .gone,
            "pass \(serialNumber) was erased on \(erasedAt.formatted(.iso8601)); an erased pass takes no change and is never un-voided: "
                + "issue a new pass with another serial number",
            code: "pass-erased")
    }
    /// Issuing a serial number that an erased pass had: 409 `pass-erased`.
    package static func serialErased(_ serialNumber: String, at erasedAt: Date) -> ServiceFailure {
        .conflict(
            "a pass with serial number \(serialNumber) was erased on \(erasedAt.formatted(.iso8601)) and its serial number is not issued "
                + "again: pick another serial number",
            code: "pass-erased")
    }
    /// Un-voiding a voided pass without saying so: 409 `pass-voided`.
    package static func unvoidNotAsked(_ serialNumber: String) -> ServiceFailure {
        .conflict(
            "pass \(serialNumber) is voided; un-voiding makes it valid again on every device that holds it: to do so, send the PATCH "
                + "with ?unvoid=true (in a bulk update, the line with \"unvoid\": true)",
            code: "pass-voided")
    }
    /// The request is well formed but does not make a valid pass (a lint error, a missing placeholder, a template
    /// that does not load).
    package static func unprocessable(_ message: String, code: String? = nil, problems: [Problem] = []) -> ServiceFailure {
        ServiceFailure(.unprocessableContent, message, code: code, problems: problems)
    }

    /// The service cannot keep what it was given (its disk): 500, with what failed.
    package static func storage(_ message: String) -> ServiceFailure { ServiceFailure(.internalServerError, message) }
    /// 501: an Apple Pay operation of a service started without the settings it needs (`settings`).
    package static func applePayNotConfigured(_ settings: String) -> ServiceFailure {
        ServiceFailure(
            .notImplemented, "Apple Pay is not configured for this: start passmint serve with \(settings)", code: "apple-pay-not-configured"
        )
    }

    /// The same failure, its message and its problems' prefixed (`passes[2]: …`).
    func prefixed(_ prefix: String) -> ServiceFailure {
        var failure = self
        failure.message = message.map { prefix + $0 }
        for index in failure.problems.indices { failure.problems[index].message = prefix + failure.problems[index].message }
        return failure
    }

    package var description: String { "\(status.code) \(message ?? status.reasonPhrase)" }

    /// The `{"error": …}` body.
    private struct Body: Encodable {
        struct Content: Encodable {
            var code: String
            var message: String
            var problems: [Problem]
        }
        var error: Content
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        guard let message else { return Response(status: status, headers: headers) }
        var response = try context.responseEncoder.encode(
            Body(error: .init(code: code, message: message, problems: problems)), from: request, context: context)
        response.status = status
        response.headers.append(contentsOf: headers)
        return response
    }
}
