import Foundation
import NIOHTTP1
import Synchronization

/// What the stand-in holds: the tokens it issued, the classes and objects (as JSON text), and what it counts.
final class GoogleStandInState: Sendable {
    struct Counts {
        var requests = 0
        var refused: [String: Int] = [:]
        /// Object patches by id, and when the first and last arrived.
        var objectPatches: [String: Int] = [:]
        var firstPatch: ContinuousClock.Instant?
        var lastPatch: ContinuousClock.Instant?
        var inserts = 0
    }

    let issuerID: String
    /// Set once the stand-in listens (the assertion's audience is its token URL); until then tokens are refused.
    private let check = Mutex<GoogleAssertionCheck?>(nil)
    private let tokens = Mutex<Set<String>>([])
    private let resources = Mutex<[String: [UInt8]]>([:])
    private let counts = Mutex(Counts())

    init(issuerID: String) { self.issuerID = issuerID }

    func trust(_ check: GoogleAssertionCheck) { self.check.withLock { $0 = check } }

    /// A token for the bare client that measures the API's ceiling (the token endpoint is not part of it).
    func grantToken() -> String {
        let token = "bench-" + UUID().uuidString
        tokens.withLock { _ = $0.insert(token) }
        return token
    }

    var snapshot: Counts { counts.withLock { $0 } }
    func resetCounts() { counts.withLock { $0 = Counts() } }
    func stored(_ collection: String, id: String) -> [UInt8]? { resources.withLock { $0[collection + "/" + id] } }

    func answer(method: HTTPMethod, path: String, authorization: String?, body: [UInt8]) -> (Int, [UInt8]) {
        let (status, text) = route(method: method, path: path, authorization: authorization, body: body)
        counts.withLock { counts in
            counts.requests += 1
            if status >= 400 {
                counts.refused["\(status) \(method) \(path.split(separator: "/").prefix(3).joined(separator: "/"))", default: 0] += 1
            }
        }
        return (status, text)
    }

    private func route(method: HTTPMethod, path: String, authorization: String?, body: [UInt8]) -> (Int, [UInt8]) {
        if path == "/token" {
            guard method == .POST else { return Self.error(405, "POST the token request") }
            return token(body)
        }
        let prefix = "/walletobjects/v1/"
        guard path.hasPrefix(prefix) else { return Self.error(404, "no such path \(path)") }
        guard let authorization, authorization.hasPrefix("Bearer "),
            tokens.withLock({ $0.contains(String(authorization.dropFirst(7))) })
        else { return Self.error(401, "Request is missing a valid access token") }
        let parts = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).removingPercentEncoding ?? String($0)
        }
        let collection = parts[0]
        guard collection.hasSuffix("Class") || collection.hasSuffix("Object"), collection.allSatisfy(\.isLetter) else {
            return Self.error(404, "no collection \(collection)")
        }
        switch (method, parts.count) {
        case (.POST, 1): return insert(collection, body)
        case (.GET, 2): return resources.withLock { $0[collection + "/" + parts[1]] }.map { (200, $0) } ?? Self.missing(parts[1])
        case (.PATCH, 2): return patch(collection, id: parts[1], body)
        default: return Self.error(405, "\(method) \(path) is not part of the API")
        }
    }

    private func token(_ body: [UInt8]) -> (Int, [UInt8]) {
        var form: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            if halves.count == 2 { form[halves[0]] = halves[1] }
        }
        guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let assertion = form["assertion"] else {
            return (400, Array(#"{"error":"unsupported_grant_type"}"#.utf8))
        }
        guard let check = check.withLock({ $0 }) else { return (400, Array(#"{"error":"invalid_grant"}"#.utf8)) }
        if let problem = check.problem(assertion) {
            return (400, Array(#"{"error":"invalid_grant","error_description":"\#(problem)"}"#.utf8))
        }
        let token = grantToken()
        return (200, Array(#"{"access_token":"\#(token)","expires_in":3600,"token_type":"Bearer"}"#.utf8))
    }

    /// The body as a JSON object with an id under the issuer; or the refusal.
    private func object(_ body: [UInt8]) -> Result<([String: Any], String), Refusal> {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
            return .failure(Refusal(answer: Self.error(400, "the body is not a JSON object")))
        }
        guard let id = object["id"] as? String, id.hasPrefix(issuerID + ".") else {
            return .failure(Refusal(answer: Self.error(400, "the body has no id under issuer \(issuerID)")))
        }
        return .success((object, id))
    }

    private func insert(_ collection: String, _ body: [UInt8]) -> (Int, [UInt8]) {
        switch object(body) {
        case .failure(let refusal): return refusal.answer
        case .success(let (_, id)):
            let inserted = resources.withLock { resources in
                guard resources[collection + "/" + id] == nil else { return false }
                resources[collection + "/" + id] = body
                return true
            }
            guard inserted else { return Self.error(409, "\(id) already exists") }
            if collection.hasSuffix("Object") { counts.withLock { $0.inserts += 1 } }
            return (200, body)
        }
    }

    private func patch(_ collection: String, id: String, _ body: [UInt8]) -> (Int, [UInt8]) {
        switch object(body) {
        case .failure(let refusal): return refusal.answer
        case .success(let (changes, bodyID)):
            guard bodyID == id else { return Self.error(400, "the body's id \(bodyID) is not the path's \(id)") }
            guard let stored = resources.withLock({ $0[collection + "/" + id] }) else { return Self.missing(id) }
            guard var merged = (try? JSONSerialization.jsonObject(with: Data(stored))) as? [String: Any] else {
                return Self.error(500, "cannot read \(id)")
            }
            merged.merge(changes) { $1 }
            guard let bytes = try? JSONSerialization.data(withJSONObject: merged) else { return Self.error(500, "cannot write \(id)") }
            resources.withLock { $0[collection + "/" + id] = Array(bytes) }
            if collection.hasSuffix("Object") {
                counts.withLock { counts in
                    counts.objectPatches[id, default: 0] += 1
                    let now = ContinuousClock.now
                    if counts.firstPatch == nil { counts.firstPatch = now }
                    counts.lastPatch = now
                }
            }
            return (200, Array(bytes))
        }
    }

    struct Refusal: Error {
        var answer: (Int, [UInt8])
    }

    private static func missing(_ id: String) -> (Int, [UInt8]) { error(404, "\(id) does not exist") }

    static func error(_ code: Int, _ message: String) -> (Int, [UInt8]) {
        let escaped = message.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return (code, Array(#"{"error":{"code":\#(code),"message":"\#(escaped)"}}"#.utf8))
    }
}
