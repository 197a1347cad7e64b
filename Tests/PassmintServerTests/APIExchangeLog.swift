import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Passmint
import Synchronization
import Testing

/// Every `/api/v1` exchange the server tests make, kept for `scripts/check-openapi.sh`, which checks each answer
/// against the OpenAPI document (its path, status, content type, required headers and body schema).
///
/// Written as JSON Lines (`method`, `path`, `status`, `contentType`, `headers`, `body` or `bodyBase64`, `test`) to the
/// file ``variable`` names (`scripts/test.sh` sets it for the whole run), and to the log a test sets as ``current``
/// (``OpenAPITests``).
final class APIExchangeLog: Sendable {
    /// The environment variable naming the file every server test appends its exchanges to.
    static let variable = "PASSMINT_TEST_API_EXCHANGES"

    /// The log of the whole run, when ``variable`` names a file.
    static let run: APIExchangeLog? = ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : APIExchangeLog(path: $0) }

    /// A log of the test's own (with `$current.withValue`), besides the run's.
    @TaskLocal static var current: APIExchangeLog?

    let path: String
    private let lock = Mutex(())

    init(path: String) {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
    }

    /// Records the exchange when it is one of the issuing API's.
    static func record(method: HTTPRequest.Method, uri: String, response: ServiceResponse) {
        let path = String(uri.prefix { $0 != "?" && $0 != "#" })
        guard path.hasPrefix("/api/v1/") || path == "/api/v1" else { return }
        let logs = [run, current].compactMap { $0 }
        guard !logs.isEmpty else { return }
        let line = JSONWriter.data(.object(entry(method: method, path: path, response: response)), style: .compact) + [0x0A]
        for log in logs { log.append(line) }
    }

    private static func entry(method: HTTPRequest.Method, path: String, response: ServiceResponse) -> JSONObject {
        var headers = JSONObject()
        for field in response.headers { headers[field.name.canonicalName.lowercased()] = .string(field.value) }
        var object: JSONObject = [
            "method": .string(method.rawValue), "path": .string(path), "status": .number(JSONNumber(Int(response.status.code))),
            "contentType": response.headers[.contentType].map(JSONValue.string) ?? .null, "headers": .object(headers),
            "test": .string(Test.current.map { "\($0.id)" } ?? "?"),
        ]
        let bytes = Array(response.body.readableBytesView)
        if let text = String(validating: bytes, as: UTF8.self) {
            object["body"] = .string(text)
        } else {
            object["bodyBase64"] = .string(Data(bytes).base64EncodedString())
        }
        return object
    }

    private func append(_ line: [UInt8]) {
        lock.withLock { _ in
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            defer { try? handle.close() }
            _ = try? handle.seekToEnd()
            try? handle.write(contentsOf: line)
        }
    }
}

extension ServiceClient {
    /// A request, the response handed to `testCallback`: every server test calls it, and it records each exchange
    /// (``APIExchangeLog``).
    @discardableResult func execute<Return>(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
        testCallback: @escaping (ServiceResponse) async throws -> Return = { $0 }
    ) async throws -> Return {
        let response = try await executeRequest(uri: uri, method: method, headers: headers, body: body)
        APIExchangeLog.record(method: method, uri: uri, response: response)
        return try await testCallback(response)
    }
}
