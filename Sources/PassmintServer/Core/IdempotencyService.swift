import Crypto
package import Foundation
import HTTPTypes
import Logging
import Passmint
import PassmintStore
import Synchronization

/// `Idempotency-Key` on the issuing API's POSTs (``IdempotencyMiddleware``): the first request with a key claims it in
/// the store (a row inserted if absent, so of two requests racing with one key, on any nodes, one does the work),
/// does the work and keeps its answer for a day; the same request sent again gets that answer, and another request
/// with the same key is refused. A request that fails gives its key up: sent again, it is done again.
package struct IdempotencyService: Sendable {
    let store: any PassStore
    let logger: Logger
    let clock: @Sendable () -> Date

    /// How long an answer is kept: a retry within a day gets it. The hourly prune round (``EventPruner``) forgets older keys.
    package static let retention: TimeInterval = 24 * 3600
    /// A claim not settled within this long was made by a request whose node stopped: another may take the key over.
    static let abandonedAfter: TimeInterval = 10 * 60

    /// The keys a request's key is unique among: those sent with the same API credential (its hash, never itself).
    static func scope(credential: String) -> String {
        Digest.sha256Hex(Array(credential.utf8))
    }

    /// A key is 1–255 visible ASCII characters (a UUID, as clients make them); 400 otherwise.
    static func check(key: String) throws(ServiceFailure) {
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .badRequest("Idempotency-Key must be 1–255 visible ASCII characters, such as a UUID", code: "invalid-idempotency-key")
        }
    }

    /// Claims `key` for a request, or finds its answer or that another request holds it.
    func claim(scope: String, key: String) async throws -> IdempotencyClaim {
        try await store.claimIdempotencyKey(scope: scope, key: key, staleBefore: clock().addingTimeInterval(-Self.abandonedAfter))
    }

    /// Keeps the answer to a claimed key. When the store cannot, the caller still gets its answer (the work is done)
    /// and the failure is logged: a retry then waits until the claim is abandoned and does the work again.
    func settle(scope: String, key: String, claim: String, answer: IdempotentAnswer) async {
        do {
            try await store.settleIdempotencyKey(scope: scope, key: key, claim: claim, answer: answer)
        } catch {
            logger.error("cannot keep the answer to an Idempotency-Key", metadata: ["error": "\(error)"])
        }
    }

    /// Gives a claimed key up after its request failed.
    func release(scope: String, key: String, claim: String) async {
        do {
            try await store.releaseIdempotencyKey(scope: scope, key: key, claim: claim)
        } catch {
            logger.error("cannot give up an Idempotency-Key; it is free again after 10 minutes", metadata: ["error": "\(error)"])
        }
    }

    /// Refuses a request whose key was used with another: 422.
    static func reused(_ key: String) -> ServiceFailure {
        .unprocessable(
            "Idempotency-Key \(key) was used with another request (another path or body) in the last 24 hours: "
                + "send a new key for a new request", code: "idempotency-key-reused")
    }

    /// Asks a request to wait for the one holding its key: 409 with `Retry-After: 1`.
    static let inProgress = ServiceFailure(
        .conflict, "a request with this Idempotency-Key is still being answered: send it again in a moment to get its answer",
        code: "idempotency-key-in-progress", headers: [.retryAfter: "1"])

    /// The hash that identifies a request: its method and path, then its body as it streams.
    final class RequestHash: Sendable {
        private let state: Mutex<SHA256>

        init(method: String, path: String) {
            var hash = SHA256()
            hash.update(data: Array("\(method) \(path)\n".utf8))
            state = Mutex(hash)
        }

        func add(_ bytes: some Sequence<UInt8>) { state.withLock { $0.update(data: Array(bytes)) } }

        var hex: String { hexString(Array(state.withLock { $0 }.finalize())) }
    }
}
