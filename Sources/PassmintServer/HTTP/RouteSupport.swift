import Hummingbird
import NIOCore
import Passmint

/// What the routes do the same way: path components, JSON bodies and answers, GET with HEAD.
enum RouteSupport {
    /// A path component of Apple's protocol (``PathComponent``); 400 otherwise.
    static func component(_ name: String, _ context: ServiceRequestContext) throws(ServiceFailure) -> String {
        guard let value = context.parameters.get(name), PathComponent.isValid(value) else {
            throw .badRequest("\(name) must be 1–128 characters of letters, digits and . _ - : ~")
        }
        return value
    }

    /// The request's body as a JSON object, read up to `limit` bytes (413 beyond); 400 when it is not one.
    static func jsonObject(_ request: Request, limit: Int) async throws -> JSONObject {
        var request = request
        let buffer = try await request.collectBody(upTo: limit)
        guard let object = try? JSONParser.value(Array(buffer.readableBytesView)).objectValue else {
            throw ServiceFailure.badRequest("the body must be a JSON object")
        }
        return object
    }

    static func json(_ status: HTTPResponse.Status, _ value: JSONValue) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: JSONWriter.data(value, style: .compact))))
    }

    static func bytes(_ bytes: [UInt8], type: String, headers: HTTPFields = [:], status: HTTPResponse.Status = .ok) -> Response {
        self.bytes(ByteBuffer(bytes: bytes), type: type, headers: headers, status: status)
    }

    /// An answer of `buffer` as it is (a cached pass: the buffer is shared, not copied).
    static func bytes(_ buffer: ByteBuffer, type: String, headers: HTTPFields = [:], status: HTTPResponse.Status = .ok) -> Response {
        var fields: HTTPFields = [.contentType: type]
        fields.append(contentsOf: headers)
        return Response(status: status, headers: fields, body: .init(byteBuffer: buffer))
    }
}

extension RouterMethods {
    /// Registers `handler` for GET and HEAD: HEAD answers the same status and headers (`Content-Length` of the body
    /// GET would send) with no body, for `curl -I`, monitors and caches.
    func getAndHead(_ path: RouterPath, use handler: @escaping @Sendable (Request, Context) async throws -> Response) {
        get(path, use: handler)
        head(path) { request, context in
            var response = try await handler(request, context)
            // The length GET would send, and no bytes: HTTP/1.1 sends no body after the head of a HEAD response.
            response.body = ResponseBody(contentLength: response.body.contentLength) { writer in try await writer.finish(nil) }
            return response
        }
    }
}
