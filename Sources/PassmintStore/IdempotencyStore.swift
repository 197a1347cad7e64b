public import Foundation

/// The first answer to a request sent with an `Idempotency-Key`, kept so that the same request sent again (a retry
/// after a timeout) gets it instead of doing the work twice.
public struct IdempotentAnswer: Sendable, Equatable {
    /// What identifies the request: a hash of its method, path and body. The same key with another hash is another
    /// request, refused.
    public var requestHash: String
    public var status: Int
    /// The headers that matter (`Content-Type`, `ETag`, `Last-Modified`, `Location`), one `name: value` per line.
    public var headers: String
    public var body: [UInt8]

    public init(requestHash: String, status: Int, headers: String, body: [UInt8]) {
        self.requestHash = requestHash
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// What claiming an idempotency key found.
public enum IdempotencyClaim: Sendable, Equatable {
    /// The key is this request's (new, or taken over from a request whose node stopped before answering): do the
    /// work, then settle the claim with the answer or release it. `claim` names this claim for both.
    case claimed(claim: String)
    /// A request with this key was answered: this is its answer.
    case answered(IdempotentAnswer)
    /// Another request holds the key and has not answered yet.
    case inProgress
}

/// Keys of creating requests and their first answers, per API key (`scope`). The store's unique key on
/// (scope, key) makes exactly one of two requests racing with one key, on any nodes, the one that does the work.
public protocol IdempotencyStore: Sendable {
    /// Claims `key` in `scope` for a request: inserted if absent, or taken over when a claim made before
    /// `staleBefore` was never settled. Otherwise the key's answer, or ``IdempotencyClaim/inProgress``.
    func claimIdempotencyKey(scope: String, key: String, staleBefore: Date) async throws -> IdempotencyClaim
    /// Keeps `answer` as the answer to the key, when `claim` still holds it.
    func settleIdempotencyKey(scope: String, key: String, claim: String, answer: IdempotentAnswer) async throws
    /// Gives the key up (the request failed; sent again, it is done again), when `claim` still holds it.
    func releaseIdempotencyKey(scope: String, key: String, claim: String) async throws
    /// Forgets the keys claimed before `before`, answered or not: the number forgotten.
    func pruneIdempotencyKeys(claimedBefore before: Date) async throws -> Int
}
