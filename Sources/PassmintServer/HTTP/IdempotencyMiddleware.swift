import HTTPTypes
import Hummingbird
import NIOCore
import PassmintStore
import Synchronization

extension HTTPField.Name {
    /// The key a client sends with a POST so that sending it again (after a timeout) gets the first answer.
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    /// On an answer given again for an `Idempotency-Key`: `true`.
    static let idempotentReplayed = HTTPField.Name("Idempotent-Replayed")!
}

/// `Idempotency-Key` on every POST of the issuing API (passes, bundles, orders, updates, publishing, webhooks): the
/// first request with a key does the work and its answer is kept (``IdempotencyService``); the same request sent
/// again gets that answer with `Idempotent-Replayed: true`, another request with that key 422, and one sent while the
/// first is still being answered 409 with `Retry-After: 1`. Requests without the header go on as they are.
struct IdempotencyMiddleware<Context: RequestContext>: RouterMiddleware {
    let service: IdempotencyService

    /// The headers an answer given again carries (the body's type, the version's tags, where it is).
    static var keptHeaders: [HTTPField.Name] { [.contentType, .eTag, .lastModified, .location] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .post, let key = request.headers[.idempotencyKey] else { return try await next(request, context) }
        try IdempotencyService.check(key: key)
        let scope = IdempotencyService.scope(credential: request.headers[.authorization] ?? "")
        let hash = IdempotencyService.RequestHash(method: request.method.rawValue, path: request.uri.path)
        switch try await service.claim(scope: scope, key: key) {
        case .inProgress:
            throw IdempotencyService.inProgress
        case .answered(let answer):
            for try await buffer in request.body { hash.add(buffer.readableBytesView) }
            guard hash.hex == answer.requestHash else { throw IdempotencyService.reused(key) }
            return Self.response(answer)
        case .claimed(let claim):
            var hashed = request
            hashed.body = RequestBody(asyncSequence: HashedBody(base: request.body, hash: hash))
            let response: Response
            let body: ByteBuffer
            do {
                response = try await next(hashed, context)
                body = try await Self.collect(response.body)
            } catch {
                await service.release(scope: scope, key: key, claim: claim)
                throw error
            }
            var headers = HTTPFields()
            for name in Self.keptHeaders { if let value = response.headers[name] { headers[name] = value } }
            let answer = IdempotentAnswer(
                requestHash: hash.hex, status: response.status.code,
                headers: headers.map { "\($0.name.canonicalName): \($0.value)" }.joined(separator: "\n"),
                body: Array(body.readableBytesView))
            await service.settle(scope: scope, key: key, claim: claim, answer: answer)
            var answered = response
            answered.body = ResponseBody(byteBuffer: body)
            return answered
        }
    }

    /// A kept answer, given again.
    static func response(_ answer: IdempotentAnswer) -> Response {
        var headers = HTTPFields()
        for line in answer.headers.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else { continue }
            headers[name] = String(line[line.index(after: colon)...].dropFirst())
        }
        headers[.idempotentReplayed] = "true"
        return Response(
            status: HTTPResponse.Status(code: answer.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    /// The bytes an answer's body writes.
    private static func collect(_ body: ResponseBody) async throws -> ByteBuffer {
        let collector = Collector()
        try await body.write(collector)
        return collector.bytes.withLock { $0 }
    }

    /// A body writer that keeps what is written.
    private final class Collector: ResponseBodyWriter, Sendable {
        let bytes = Mutex(ByteBuffer())
        func write(_ buffer: ByteBuffer) async throws { bytes.withLock { _ = $0.writeImmutableBuffer(buffer) } }
        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}

/// A request body that feeds a ``IdempotencyService/RequestHash`` with its bytes as the route reads them.
private struct HashedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let base: RequestBody
    let hash: IdempotencyService.RequestHash

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let hash: IdempotencyService.RequestHash

        mutating func next() async throws -> ByteBuffer? {
            let buffer = try await base.next()
            if let buffer { hash.add(buffer.readableBytesView) }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), hash: hash) }
}
