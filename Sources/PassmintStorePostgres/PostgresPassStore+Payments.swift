public import Foundation
import Logging
public import PassmintStore
import PostgresNIO

/// Payments on PostgreSQL (`payments`, migration 19): a transaction id is claimed by inserting its row if absent. Of two
/// nodes inserting one at once, the second waits on the primary key for the first's commit and then finds it held.
extension PostgresPassStore {
    public func claimPayment(transactionId: String, requestHash: String, staleBefore: Date) async throws -> PaymentClaim {
        let claim = UUID().uuidString
        let now = PassEvent.milliseconds(clock())
        let stale = PassEvent.milliseconds(staleBefore)
        return try await write(notify: false) { connection in
            let fresh =
                try await connection.rowCount(
                    """
                    INSERT INTO payments (transaction_id, state, request_hash, claim, claimed_at, received_at)
                    VALUES (\(transactionId), 'received', \(requestHash), \(claim), \(now), \(now))
                    ON CONFLICT (transaction_id) DO NOTHING RETURNING 1
                    """, logger: logger) > 0
            if fresh {
                return .claimed(
                    claim: claim,
                    PaymentRecord(
                        transactionId: transactionId, state: .received, requestHash: requestHash,
                        receivedAt: PassEvent.date(milliseconds: now)))
            }
            guard let (record, free) = try await Self.payment(connection, transactionId, staleBefore: stale, logger) else {
                throw PassStoreError(.database, "the payment \(transactionId) vanished while it was claimed")
            }
            guard free, [.received, .approved].contains(record.state) else { return .held(record) }
            try await connection.query(
                "UPDATE payments SET claim = \(claim), claimed_at = \(now) WHERE transaction_id = \(transactionId)", logger: logger)
            return .claimed(claim: claim, record)
        }
    }

    public func decidePayment(transactionId: String, claim: String, approved: Bool, outcome: String?) async throws {
        let state = approved ? "approved" : "declined"
        try await write(notify: false) { connection in
            let updated =
                try await connection.rowCount(
                    """
                    UPDATE payments SET state = \(state), outcome = \(outcome)
                    WHERE transaction_id = \(transactionId) AND claim = \(claim) AND state = 'received' RETURNING 1
                    """, logger: logger) > 0
            guard updated else { throw PassStoreError.lostPayment(PaymentSettlement(transactionId: transactionId, claim: claim)) }
        }
    }

    public func releasePayment(transactionId: String, claim: String) async throws {
        try await write(notify: false) { connection in
            _ = try await connection.query(
                "UPDATE payments SET claim = NULL WHERE transaction_id = \(transactionId) AND claim = \(claim)", logger: logger)
        }
    }

    public func prunePayments(finishedBefore before: Date) async throws -> Int {
        try await write(notify: false) { connection in
            return try await connection.rowCount(
                """
                DELETE FROM payments WHERE state IN ('declined', 'issued') AND received_at < \(PassEvent.milliseconds(before)) RETURNING 1
                """, logger: logger)
        }
    }

    public func payment(transactionId: String) async throws -> PaymentRecord? {
        try await write(notify: false) { connection in
            try await Self.payment(connection, transactionId, staleBefore: 0, logger)?.record
        }
    }

    /// The payment's row (locked for the transaction) and whether its claim is free: given up, or made before `staleBefore`.
    private static func payment(
        _ connection: PostgresConnection, _ transactionId: String, staleBefore: Int64, _ logger: Logger
    ) async throws -> (record: PaymentRecord, free: Bool)? {
        let rows = try await connection.query(
            """
            SELECT state, request_hash, outcome, pass_type_id, serial_number, received_at,
                claim IS NULL OR claimed_at < \(staleBefore)
            FROM payments WHERE transaction_id = \(transactionId) FOR UPDATE
            """, logger: logger)
        let columns = (String, String, String?, String?, String?, Int64, Bool).self
        for try await (state, hash, outcome, type, serial, receivedAt, free) in rows.decode(columns) {
            let record = PaymentRecord(
                transactionId: transactionId, state: PaymentRecord.State(rawValue: state) ?? .received, requestHash: hash,
                outcome: outcome, pass: type.map { PassKey(passTypeIdentifier: $0, serialNumber: serial ?? "") },
                receivedAt: PassEvent.date(milliseconds: receivedAt))
            return (record, free)
        }
        return nil
    }

    /// Marks the payment issued for `pass`, inside the insert's transaction; throws when it is not approved under the claim.
    static func markIssued(
        _ connection: PostgresConnection, _ payment: PaymentSettlement, pass: StoredPass, _ logger: Logger
    ) async throws {
        let updated =
            try await connection.rowCount(
                """
                UPDATE payments SET state = 'issued', pass_type_id = \(pass.passTypeIdentifier), serial_number = \(pass.serialNumber)
                WHERE transaction_id = \(payment.transactionId) AND claim = \(payment.claim) AND state = 'approved' RETURNING 1
                """, logger: logger) > 0
        guard updated else { throw PassStoreError.lostPayment(payment) }
    }
}
