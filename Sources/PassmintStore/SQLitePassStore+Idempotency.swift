public import Foundation

/// Idempotency keys on SQLite (`idempotency_keys`, migration 14): the single writer claims a key by inserting its
/// row if absent, so of two requests with one key exactly one gets the claim.
extension SQLitePassStore {
    public func claimIdempotencyKey(scope: String, key: String, staleBefore: Date) async throws -> IdempotencyClaim {
        let claim = UUID().uuidString
        return try await writer.write { db in
            let now = PassEvent.milliseconds(self.clock())
            try db.query(
                "INSERT INTO idempotency_keys (scope, key, claim, claimed_at) VALUES (?, ?, ?, ?) ON CONFLICT (scope, key) DO NOTHING",
                [.text(scope), .text(key), .text(claim), .integer(now)])
            if db.changes > 0 { return .claimed(claim: claim) }
            var found = IdempotencyClaim.inProgress
            var stale = false
            try db.query(
                "SELECT status, request_hash, headers, body, claimed_at FROM idempotency_keys WHERE scope = ? AND key = ?",
                [.text(scope), .text(key)]
            ) { row in
                if let status = row.optionalInteger(0) {
                    found = .answered(
                        IdempotentAnswer(
                            requestHash: row.text(1) ?? "", status: Int(status), headers: row.text(2) ?? "", body: row.blob(3)))
                } else {
                    stale = row.integer(4) < PassEvent.milliseconds(staleBefore)
                }
            }
            guard stale else { return found }
            try db.query(
                "UPDATE idempotency_keys SET claim = ?, claimed_at = ? WHERE scope = ? AND key = ? AND status IS NULL",
                [.text(claim), .integer(now), .text(scope), .text(key)])
            return .claimed(claim: claim)
        }
    }

    public func settleIdempotencyKey(scope: String, key: String, claim: String, answer: IdempotentAnswer) async throws {
        try await writer.write { db in
            try db.query(
                """
                UPDATE idempotency_keys SET request_hash = ?, status = ?, headers = ?, body = ?
                WHERE scope = ? AND key = ? AND claim = ? AND status IS NULL
                """,
                [
                    .text(answer.requestHash), .integer(Int64(answer.status)), .text(answer.headers), .blob(answer.body), .text(scope),
                    .text(key), .text(claim),
                ])
        }
    }

    public func releaseIdempotencyKey(scope: String, key: String, claim: String) async throws {
        try await writer.write { db in
            try db.query(
                "DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND claim = ? AND status IS NULL",
                [.text(scope), .text(key), .text(claim)])
        }
    }

    public func pruneIdempotencyKeys(claimedBefore before: Date) async throws -> Int {
        try await writer.write { db in
            try db.query("DELETE FROM idempotency_keys WHERE claimed_at < ?", [.integer(PassEvent.milliseconds(before))])
            return db.changes
        }
    }
}
