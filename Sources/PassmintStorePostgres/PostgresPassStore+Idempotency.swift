public import Foundation
public import PassmintStore
import PostgresNIO

/// Idempotency keys on PostgreSQL (`idempotency_keys`, migration 15): a key is claimed by inserting its row if
/// absent. Of two nodes inserting one key at once, the second waits on the primary key for the first's commit and
/// then finds the key claimed: exactly one does the work.
extension PostgresPassStore {
    public func claimIdempotencyKey(scope: String, key: String, staleBefore: Date) async throws -> IdempotencyClaim {
        let claim = UUID().uuidString
        let now = PassEvent.milliseconds(clock())
        return try await write(notify: false) { connection in
            let fresh =
                try await connection.rowCount(
                    """
                    INSERT INTO idempotency_keys (scope, key, claim, claimed_at) VALUES (\(scope), \(key), \(claim), \(now))
                    ON CONFLICT (scope, key) DO NOTHING RETURNING 1
                    """, logger: logger) > 0
            if fresh { return .claimed(claim: claim) }
            let rows = try await connection.query(
                """
                SELECT status, request_hash, headers, body, claimed_at FROM idempotency_keys
                WHERE scope = \(scope) AND key = \(key) FOR UPDATE
                """, logger: logger)
            var found = IdempotencyClaim.inProgress
            var abandoned = false
            for try await (status, hash, headers, body, claimedAt) in rows.decode((Int?, String?, String?, Data?, Int64).self) {
                if let status {
                    found = .answered(
                        IdempotentAnswer(requestHash: hash ?? "", status: status, headers: headers ?? "", body: [UInt8](body ?? Data())))
                } else {
                    abandoned = claimedAt < PassEvent.milliseconds(staleBefore)
                }
            }
            guard abandoned else { return found }
            try await connection.query(
                """
                UPDATE idempotency_keys SET claim = \(claim), claimed_at = \(now)
                WHERE scope = \(scope) AND key = \(key) AND status IS NULL
                """, logger: logger)
            return .claimed(claim: claim)
        }
    }

    public func settleIdempotencyKey(scope: String, key: String, claim: String, answer: IdempotentAnswer) async throws {
        try await write(notify: false) { connection in
            _ = try await connection.query(
                """
                UPDATE idempotency_keys SET request_hash = \(answer.requestHash), status = \(answer.status),
                    headers = \(answer.headers), body = \(Data(answer.body))
                WHERE scope = \(scope) AND key = \(key) AND claim = \(claim) AND status IS NULL
                """, logger: logger)
        }
    }

    public func releaseIdempotencyKey(scope: String, key: String, claim: String) async throws {
        try await write(notify: false) { connection in
            _ = try await connection.query(
                "DELETE FROM idempotency_keys WHERE scope = \(scope) AND key = \(key) AND claim = \(claim) AND status IS NULL",
                logger: logger)
        }
    }

    public func pruneIdempotencyKeys(claimedBefore before: Date) async throws -> Int {
        try await write(notify: false) { connection in
            return try await connection.rowCount(
                "DELETE FROM idempotency_keys WHERE claimed_at < \(PassEvent.milliseconds(before)) RETURNING 1", logger: logger)
        }
    }
}
