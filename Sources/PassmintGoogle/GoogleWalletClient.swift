public import Foundation
public import Passmint
import PassmintHTTP

/// Keeps classes and objects in Google Wallet (`walletobjects/v1`) equal to what Passmint makes: a class or object
/// is inserted when Google does not have it, patched when what Google has differs, and left alone otherwise. 404 and
/// 409 mean someone else got there first and are settled by reading again; 429 and 5xx are retried (``GoogleRetry``).
public final class GoogleWalletClient: Sendable {
    /// Google's API.
    public static let production = URL(string: "https://walletobjects.googleapis.com")!

    /// What an upsert did.
    public enum Outcome: String, Sendable, Equatable {
        case inserted
        case patched
        case unchanged
    }

    public let apiURL: URL
    /// `{apiURL}/walletobjects/v1`, made once: each request appends its path to it.
    let objectsURL: String
    let tokens: GoogleAccessTokens
    let http: GoogleHTTP
    let retry: GoogleRetry
    let now: @Sendable () -> Date

    public init(
        apiURL: URL = GoogleWalletClient.production, tokens: GoogleAccessTokens, http: GoogleHTTP, retry: GoogleRetry = GoogleRetry(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.apiURL = apiURL
        let api = apiURL.absoluteString
        objectsURL = (api.hasSuffix("/") ? String(api.dropLast()) : api) + "/walletobjects/v1"
        self.tokens = tokens
        self.http = http
        self.retry = retry
        self.now = now
    }

    /// Inserts or patches a class (`style.classCollection`).
    @discardableResult
    public func upsertClass(_ body: JSONObject, style: GoogleWalletStyle) async throws(GoogleWalletError) -> Outcome {
        try await upsert(body, collection: style.classCollection)
    }

    /// Inserts or patches an object; its class must exist.
    @discardableResult
    public func upsertObject(_ body: JSONObject, style: GoogleWalletStyle) async throws(GoogleWalletError) -> Outcome {
        try await upsert(body, collection: style.objectCollection)
    }

    /// Inserts `body` when Google has no resource with its id, patches it when Google's differs.
    public func upsert(_ body: JSONObject, collection: String) async throws(GoogleWalletError) -> Outcome {
        guard let id = body["id"]?.stringValue else {
            throw GoogleWalletError(.invalidIdentifier, "a \(collection) without an \"id\" cannot be sent to Google")
        }
        // Two rounds at most: an insert that meets 409, or a patch that meets 404, reads again once.
        for _ in 0..<2 {
            if let remote = try await get(collection: collection, id: id) {
                if Self.contains(remote, body) { return .unchanged }
                let patched = try await request("PATCH", path: "\(collection)/\(WalletRoute.percentEncoded(id))", body: body)
                if patched.status == 404 { continue }
                try check(patched, "patch \(collection) \(id)")
                return .patched
            }
            let inserted = try await request("POST", path: collection, body: body)
            if inserted.status == 409 { continue }
            try check(inserted, "insert \(collection) \(id)")
            return .inserted
        }
        throw GoogleWalletError(
            .unavailable, "\(collection) \(id) kept changing between reading and writing it: try again", status: 409)
    }

    /// The resource Google holds, or nil when it has none (404).
    public func get(collection: String, id: String) async throws(GoogleWalletError) -> JSONObject? {
        let response = try await request("GET", path: "\(collection)/\(WalletRoute.percentEncoded(id))", body: nil)
        if response.status == 404 { return nil }
        try check(response, "read \(collection) \(id)")
        guard let object = (try? JSONParser.value(response.body))?.objectValue else {
            throw GoogleWalletError(.refused, "Google answered reading \(collection) \(id) with something that is not a JSON object")
        }
        return object
    }

    /// Whether `remote` already holds every member of `local` with the same value (Google adds members of its own).
    static func contains(_ remote: JSONObject, _ local: JSONObject) -> Bool {
        local.allSatisfy { member in
            switch (remote[member.key], member.value) {
            case (.object(let theirs)?, .object(let ours)): contains(theirs, ours)
            case (let theirs?, let ours): theirs == ours
            case (nil, let ours): ours == .null
            }
        }
    }

    func check(_ response: GoogleHTTP.Response, _ what: String) throws(GoogleWalletError) {
        guard !(200...299).contains(response.status) else { return }
        let body = try? JSONParser.value(response.body)
        let reason = body?["error"]?["message"]?.stringValue ?? "HTTP \(response.status)"
        let next: String
        switch response.status {
        case 400: next = "the body breaks Google's schema; run passmint lint --google on the template"
        case 401, 403: next = "check that the service account is added as a user of the issuer in Google Pay & Wallet console"
        case 404: next = "the class it names does not exist: insert the class first"
        default: next = "try again later"
        }
        throw GoogleWalletError(.refused, "Google refused to \(what): \(reason) (\(next))", status: response.status)
    }
}
