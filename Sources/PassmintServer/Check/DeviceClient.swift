import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Passmint

/// What one request of the checker sent and got back.
struct DeviceExchange: Sendable {
    var sent: String
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
    var seconds: Double

    /// The first value of the header `name`.
    func header(_ name: String) -> String? { headers.first(name: name) }

    /// `200 application/json {"serialNumbers":…}` (the body cut, binary bodies as their length).
    var received: String {
        var text = "\(status)"
        if let type = headers.first(name: "Content-Type") { text += " " + type }
        if let modified = headers.first(name: "Last-Modified") { text += " Last-Modified: " + modified }
        if body.isEmpty { return text + " (no body)" }
        guard let string = String(validating: body, as: UTF8.self), !string.contains("\0") else { return text + " (\(body.count) bytes)" }
        return text + " " + MessageText.cut(string, limit: 300)
    }
}

/// A failure to reach the service at all (connection refused, TLS, timeout).
struct DeviceCallError: Error {
    var sent: String
    var message: String
    /// The call was sent but not answered whole within ``ServiceCheckOptions/timeout``.
    var timedOut = false
}

/// The checker's HTTP client: calls the web service as a device does (no redirects followed, bodies bounded) and
/// times each call.
struct DeviceClient: Sendable {
    let http: HTTPClient
    /// `{webServiceURL}/v1/`.
    let root: String
    let kind: WalletWebService.Kind
    /// Sent with every call, left out of ``DeviceExchange/sent`` (``ServiceCheckOptions/headers``).
    let marks: [(name: String, value: String)]
    /// How long one call may take (``ServiceCheckOptions/timeout``).
    let timeout: Duration

    init(http: HTTPClient, target: ServiceCheckTarget, marks: [(name: String, value: String)], timeout: Duration) {
        self.http = http
        self.marks = marks
        self.timeout = timeout
        var base = target.serviceURL
        while base.hasSuffix("/") { base.removeLast() }
        root = base + "/" + WalletWebService.version + "/"
        kind = target.kind
    }

    /// Sends `route` to `path` (after `v1/`, its query included); `token` as the kind's scheme, or `authorization` as
    /// it is; `body` as JSON.
    func call(
        _ route: WalletRoute, _ path: String, token: String? = nil, authorization: String? = nil, body: JSONValue? = nil,
        headers extra: [(String, String)] = []
    ) async throws(DeviceCallError) -> DeviceExchange {
        var request = HTTPClientRequest(url: root + path)
        request.method = HTTPMethod(rawValue: route.method)
        var sent = "\(route.method) \(root)\(path)"
        if let header = authorization ?? token.map({ kind.authorization(token: $0) }) {
            request.headers.add(name: "Authorization", value: header)
            sent += " (Authorization: \(Self.redacted(header)))"
        }
        for (name, value) in marks { request.headers.add(name: name, value: value) }
        for (name, value) in extra {
            request.headers.add(name: name, value: value)
            sent += " (\(name): \(value))"
        }
        if let body {
            let bytes = JSONWriter.data(body, style: .compact)
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: bytes))
            sent += " " + String(decoding: bytes, as: UTF8.self)
        }
        let start = ContinuousClock.now
        do {
            let response = try await http.execute(request, timeout: TimeAmount(timeout))
            let buffer = try await response.body.collect(upTo: 32 << 20)
            let elapsed = ContinuousClock.now - start
            return DeviceExchange(
                sent: sent, status: Int(response.status.code), headers: response.headers, body: Array(buffer.readableBytesView),
                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            throw DeviceCallError(sent: sent, message: "no whole answer within \(timeout) (\(error))", timedOut: true)
        } catch {
            throw DeviceCallError(sent: sent, message: "\(error)")
        }
    }

    /// The header with its token shortened: reports are shared, tokens are secrets.
    static func redacted(_ header: String) -> String {
        guard let space = header.firstIndex(of: " ") else { return header }
        let token = header[header.index(after: space)...]
        return header[..<space] + " " + (token.count > 6 ? token.prefix(3) + "…" : "…")
    }
}
