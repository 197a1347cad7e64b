import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Passmint

/// The issuing API's bulk-change endpoints, as `passmint update` calls them.
struct UpdateClient {
    let base: String
    let apiKey: String
    var http: HTTPClient { .shared }

    struct Refused: Error, CustomStringConvertible {
        var description: String
        /// The service could not be reached at all (nothing was sent).
        var unreachable = false
    }

    private func request(_ path: String, method: HTTPMethod = .GET) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
        return request
    }

    private func send(_ request: HTTPClientRequest, expecting status: HTTPResponseStatus) async throws -> [UInt8] {
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: .minutes(30))
        } catch {
            throw Refused(description: Self.unreachable(base, error), unreachable: true)
        }
        let body = Array(try await response.body.collect(upTo: 64 << 20).readableBytesView)
        guard response.status == status else {
            let message =
                (try? JSONParser.value(body))?["error"]?["message"]?.stringValue ?? String(decoding: body.prefix(500), as: UTF8.self)
            throw Refused(description: "\(request.method) \(request.url) answered \(response.status.code): \(message)")
        }
        return body
    }

    /// Streams the upload's rows to `POST /api/v1/updates`; the job the service answered.
    func upload(_ upload: UpdateUpload) async throws -> JSONValue {
        var request = request("/api/v1/updates", method: .POST)
        request.headers.add(name: "Content-Type", value: "application/jsonl")
        let chunks = AsyncStream<ByteBuffer> { continuation in
            while let chunk = upload.nextChunk() { continuation.yield(chunk) }
            continuation.finish()
        }
        request.body = .stream(chunks, length: .unknown)
        return try JSONParser.value(try await send(request, expecting: .accepted))
    }

    /// What to say when the service cannot be reached: the URL, and whether `passmint serve` runs there.
    static func unreachable(_ base: String, _ error: any Error) -> String {
        let text = String(describing: error)
        let refused = text.contains("connectionRefused") || text.contains("Connection refused") || text.contains("ECONNREFUSED")
        let why = refused ? "the connection was refused" : text.contains("imeout") ? "no answer in time" : "the connection failed (\(text))"
        return
            "cannot reach the service at \(base): \(why). Is `passmint serve` running there? (check --service or \"service\" in passmint.json)"
    }

    /// The pass types the service signs (`GET /api/v1/templates`).
    func passTypes() async throws -> [String] {
        let body = try JSONParser.value(try await send(request("/api/v1/templates"), expecting: .ok))
        return (body["passTypeIdentifiers"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// `POST /api/v1/templates/{name}/publish`; the job.
    func publish(template: String, data: JSONObject?, purgeUnused: Bool = false) async throws -> JSONValue {
        var request = request("/api/v1/templates/\(template)/publish", method: .POST)
        var body = JSONObject()
        if let data { body["data"] = .object(data) }
        if purgeUnused { body["purgeUnused"] = true }
        if body.count > 0 { request.body = .bytes(ByteBuffer(bytes: JSONWriter.data(.object(body), style: .compact))) }
        return try JSONParser.value(try await send(request, expecting: .accepted))
    }

    /// Polls the job until it is no longer running, calling `progress` with each answer; the last answer. A poll that
    /// fails (the node answering it died; a proxy sends the next one to another) is tried again, up to `retries` times
    /// in a row, a second apart.
    func wait(for id: String, retries: Int = 10, progress: (JSONValue) -> Void) async throws -> JSONValue {
        var failures = 0
        while true {
            let job: JSONValue
            do {
                job = try JSONParser.value(try await send(request("/api/v1/jobs/\(id)"), expecting: .ok))
                failures = 0
            } catch let refused as Refused where refused.unreachable {
                failures += 1
                if failures > retries { throw refused }
                try await Task.sleep(for: .seconds(1))
                continue
            }
            progress(job)
            if job["state"]?.stringValue != "running" { return job }
            try await Task.sleep(for: .milliseconds(250))
        }
    }

    /// Every failed line of the job.
    func failures(of id: String) async throws -> [JSONValue] {
        let body = try await send(request("/api/v1/jobs/\(id)/failures"), expecting: .ok)
        return body.split(separator: 0x0A).compactMap { try? JSONParser.value($0) }
    }
}
