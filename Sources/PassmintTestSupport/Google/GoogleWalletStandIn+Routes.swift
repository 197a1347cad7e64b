import Foundation
import NIOHTTP1
import Passmint
import Synchronization

extension GoogleWalletStandIn {
    /// Answers one request and records it.
    func answer(_ request: StandInRequest) -> StandInAnswer {
        let path = String(request.path.split(separator: "?", maxSplits: 1).first ?? "")
        let reply: StandInAnswer
        if path == "/token" {
            reply = tokenAnswer(request)
        } else if path.hasPrefix("/walletobjects/v1/") {
            reply = apiAnswer(request, path: String(path.dropFirst("/walletobjects/v1/".count)))
        } else {
            reply = Self.error(404, "NOT_FOUND", "notFound", "no route for \(path)")
        }
        let text = String(decoding: request.body, as: UTF8.self)
        state.withLock { $0.received.append(Received(method: request.method, path: path, body: text, status: reply.status, at: .now)) }
        return reply
    }

    private func tokenAnswer(_ request: StandInRequest) -> StandInAnswer {
        if let fault = state.withLock({ $0.tokenFaults.isEmpty ? nil : $0.tokenFaults.removeFirst() }) { return Self.fault(fault) }
        guard request.method == "POST", request.headers.first(name: "content-type")?.hasPrefix("application/x-www-form-urlencoded") == true
        else { return Self.tokenError("invalid_request", "POST a form (application/x-www-form-urlencoded)") }
        var form = URLComponents()
        form.percentEncodedQuery = String(decoding: request.body, as: UTF8.self).replacingOccurrences(of: "+", with: "%20")
        let fields = Dictionary((form.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { first, _ in first }
        guard fields["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer" else {
            return Self.tokenError("unsupported_grant_type", "Invalid grant_type: \(fields["grant_type"] ?? "")")
        }
        if let problem = verifier.problem(assertion: fields["assertion"] ?? "", audience: tokenURL.absoluteString, now: now()) {
            return Self.tokenError("invalid_grant", problem)
        }
        let token = issueToken()
        return StandInAnswer(
            status: 200,
            body: JSONWriter.string(
                ["access_token": .string(token), "expires_in": .number(JSONNumber(tokenLifetime)), "token_type": "Bearer"], style: .compact)
        )
    }

    private func apiAnswer(_ request: StandInRequest, path: String) -> StandInAnswer {
        let authorization = request.headers.first(name: "authorization") ?? ""
        let token = authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst("Bearer ".count)) : ""
        let now = now()
        guard let expiry = state.withLock({ $0.tokens[token] }), expiry > now else {
            return Self.error(401, "UNAUTHENTICATED", "authError", "Request had invalid authentication credentials.")
        }
        if let fault = state.withLock({ $0.faults.isEmpty ? nil : $0.faults.removeFirst() }) { return Self.fault(fault) }
        let delay = state.withLock { $0.writeDelay }
        if delay > 0, request.method != "GET" { Thread.sleep(forTimeInterval: delay) }
        let parts = path.split(separator: "/", maxSplits: 1).map(String.init)
        guard let collection = parts.first, let schema = discovery.collections[collection] else {
            return Self.error(404, "NOT_FOUND", "notFound", "no collection \(path)")
        }
        let id = parts.count > 1 ? (parts[1].removingPercentEncoding ?? parts[1]) : nil
        switch (request.method, id) {
        case ("GET", let id?):
            guard let stored = stored(collection, id: id) else { return Self.missing(collection, id) }
            return StandInAnswer(status: 200, body: JSONWriter.string(.object(stored), style: .compact))
        case ("POST", nil): return insert(request.body, collection: collection, schema: schema)
        case ("PATCH", let id?): return patch(request.body, collection: collection, schema: schema, id: id)
        default: return Self.error(405, "METHOD_NOT_ALLOWED", "methodNotAllowed", "\(request.method) \(path)")
        }
    }

    private func checked(_ body: [UInt8], schema: String) -> Result<JSONObject, StandInFailure> {
        guard let value = try? JSONParser.value(body), let object = value.objectValue else {
            return .failure(StandInFailure(Self.error(400, "INVALID_ARGUMENT", "invalid", "Invalid JSON payload received.")))
        }
        if let problem = discovery.problem(in: value, schema: schema) ?? imageProblem(in: value) {
            return .failure(StandInFailure(Self.error(400, "INVALID_ARGUMENT", "invalid", problem)))
        }
        return .success(object)
    }

    private func insert(_ body: [UInt8], collection: String, schema: String) -> StandInAnswer {
        let object: JSONObject
        switch checked(body, schema: schema) {
        case .failure(let failure): return failure.answer
        case .success(let value): object = value
        }
        guard let id = object["id"]?.stringValue else { return Self.error(400, "INVALID_ARGUMENT", "required", "Missing resource id.") }
        if let problem = idProblem(id) { return problem }
        if collection.hasSuffix("Object") {
            let classes = String(collection.dropLast("Object".count)) + "Class"
            guard let classID = object["classId"]?.stringValue, stored(classes, id: classID) != nil else {
                return Self.error(
                    404, "NOT_FOUND", "resourceNotFound", "The class \(object["classId"]?.stringValue ?? "(none)") does not exist.")
            }
        }
        return state.withLock { state in
            if state.resources[collection]?[id] != nil {
                return Self.error(409, "ALREADY_EXISTS", "duplicate", "Resource already exists: \(id)")
            }
            state.resources[collection, default: [:]][id] = object
            return StandInAnswer(status: 200, body: JSONWriter.string(.object(object), style: .compact))
        }
    }

    private func patch(_ body: [UInt8], collection: String, schema: String, id: String) -> StandInAnswer {
        let changes: JSONObject
        switch checked(body, schema: schema) {
        case .failure(let failure): return failure.answer
        case .success(let value): changes = value
        }
        if let given = changes["id"]?.stringValue, given != id {
            return Self.error(400, "INVALID_ARGUMENT", "invalid", "The id in the body (\(given)) differs from the URL (\(id)).")
        }
        return state.withLock { state in
            guard var stored = state.resources[collection]?[id] else { return Self.missing(collection, id) }
            stored = Self.merged(stored, changes)
            state.resources[collection]?[id] = stored
            return StandInAnswer(status: 200, body: JSONWriter.string(.object(stored), style: .compact))
        }
    }

    /// Patch semantics: the fields given replace the stored ones, nested messages merge.
    static func merged(_ stored: JSONObject, _ changes: JSONObject) -> JSONObject {
        var result = stored
        for member in changes {
            if case .object(let nested) = member.value, case .object(let old)? = stored[member.key] {
                result[member.key] = .object(merged(old, nested))
            } else {
                result[member.key] = member.value
            }
        }
        return result
    }

    private func idProblem(_ id: String) -> StandInAnswer? {
        guard id.hasPrefix(issuerID + ".") else {
            return Self.error(403, "PERMISSION_DENIED", "permissionDenied", "The caller does not have permission for issuer of \(id)")
        }
        let allowed = id.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
        }
        return allowed ? nil : Self.error(400, "INVALID_ARGUMENT", "invalidResourceId", "Invalid resource id: \(id)")
    }

    private static func missing(_ collection: String, _ id: String) -> StandInAnswer {
        error(404, "NOT_FOUND", "resourceNotFound", "Resource not found: \(collection) \(id)")
    }

    private static func fault(_ fault: Fault) -> StandInAnswer {
        var answer = error(fault.status, fault.status == 429 ? "RESOURCE_EXHAUSTED" : "UNAVAILABLE", "backendError", "fault")
        if let retryAfter = fault.retryAfter { answer.headers.append(("retry-after", retryAfter)) }
        return answer
    }

    private static func tokenError(_ code: String, _ description: String) -> StandInAnswer {
        StandInAnswer(
            status: 400, body: JSONWriter.string(["error": .string(code), "error_description": .string(description)], style: .compact))
    }

    /// Google's error body: `{"error": {"code", "message", "errors": [{"reason"}], "status"}}`.
    static func error(_ code: Int, _ status: String, _ reason: String, _ message: String) -> StandInAnswer {
        let body: JSONValue = [
            "error": [
                "code": .number(JSONNumber(code)), "message": .string(message),
                "errors": [["message": .string(message), "domain": "global", "reason": .string(reason)]], "status": .string(status),
            ]
        ]
        return StandInAnswer(status: code, body: JSONWriter.string(body, style: .compact))
    }
}

/// A refused body, carried through `Result`.
struct StandInFailure: Error {
    var answer: StandInAnswer
    init(_ answer: StandInAnswer) { self.answer = answer }
}
