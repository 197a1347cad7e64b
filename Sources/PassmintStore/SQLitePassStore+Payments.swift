public import Foundation

/// Payments on SQLite (`payments`, migration 19): the single writer claims a transaction id by inserting its row if
/// absent, so of two requests with one token exactly one carries it.
extension SQLitePassStore {
    public func claimPayment(transactionId: String, requestHash: String, staleBefore: Date) async throws -> PaymentClaim {
        let claim = UUID().uuidString
        return try await writer.write { db in
            let now = PassEvent.milliseconds(self.clock())
            try db.query(
                """
                INSERT INTO payments (transaction_id, state, request_hash, claim, claimed_at, received_at)
                VALUES (?, 'received', ?, ?, ?, ?) ON CONFLICT (transaction_id) DO NOTHING
                """, [.text(transactionId), .text(requestHash), .text(claim), .integer(now), .integer(now)])
            if db.changes > 0 {
                return .claimed(
                    claim: claim,
                    PaymentRecord(
                        transactionId: transactionId, state: .received, requestHash: requestHash,
                        receivedAt: PassEvent.date(milliseconds: now)))
            }
            var found: (record: PaymentRecord, free: Bool)?
            try db.query(
                "SELECT \(Self.paymentColumns), claim IS NULL OR claimed_at < ? FROM payments WHERE transaction_id = ?",
                [.integer(PassEvent.milliseconds(staleBefore)), .text(transactionId)]
            ) { row in found = (Self.payment(row, transactionId), row.integer(6) != 0) }
            guard let found else { throw PassStoreError(.database, "the payment \(transactionId) vanished while it was claimed") }
            guard found.free, [.received, .approved].contains(found.record.state) else { return .held(found.record) }
            try db.query(
                "UPDATE payments SET claim = ?, claimed_at = ? WHERE transaction_id = ?",
                [.text(claim), .integer(now), .text(transactionId)])
            return .claimed(claim: claim, found.record)
        }
    }

    public func decidePayment(transactionId: String, claim: String, approved: Bool, outcome: String?) async throws {
        try await writer.write { db in
            try db.query(
                "UPDATE payments SET state = ?, outcome = ? WHERE transaction_id = ? AND claim = ? AND state = 'received'",
                [
                    .text(approved ? "approved" : "declined"), outcome.map(SQLiteConnection.Value.text) ?? .null, .text(transactionId),
                    .text(claim),
                ])
            guard db.changes > 0 else {
                throw PassStoreError.lostPayment(PaymentSettlement(transactionId: transactionId, claim: claim))
            }
        }
    }

    public func releasePayment(transactionId: String, claim: String) async throws {
        try await writer.write { db in
            try db.query(
                "UPDATE payments SET claim = NULL WHERE transaction_id = ? AND claim = ?", [.text(transactionId), .text(claim)])
        }
    }

    public func payment(transactionId: String) async throws -> PaymentRecord? {
        try read { db in
            var found: PaymentRecord?
            try db.query("SELECT \(Self.paymentColumns) FROM payments WHERE transaction_id = ?", [.text(transactionId)]) { row in
                found = Self.payment(row, transactionId)
            }
            return found
        }
    }

    public func prunePayments(finishedBefore before: Date) async throws -> Int {
        try await writer.write { db in
            try db.query(
                "DELETE FROM payments WHERE state IN ('declined', 'issued') AND received_at < ?", [.integer(PassEvent.milliseconds(before))]
            )
            return db.changes
        }
    }

    static let paymentColumns = "state, request_hash, outcome, pass_type_id, serial_number, received_at"

    static func payment(_ row: SQLiteConnection.Row, _ transactionId: String) -> PaymentRecord {
        PaymentRecord(
            transactionId: transactionId, state: PaymentRecord.State(rawValue: row.text(0) ?? "") ?? .received,
            requestHash: row.text(1) ?? "", outcome: row.text(2),
            pass: row.text(3).map { PassKey(passTypeIdentifier: $0, serialNumber: row.text(4) ?? "") },
            receivedAt: PassEvent.date(milliseconds: row.integer(5)))
    }

    /// Marks the payment issued for `pass`, inside the insert's transaction; throws when it is not approved under the claim.
    static func markIssued(_ db: SQLiteConnection, _ payment: PaymentSettlement, pass: StoredPass) throws {
        try db.query(
            """
            UPDATE payments SET state = 'issued', pass_type_id = ?, serial_number = ?
            WHERE transaction_id = ? AND claim = ? AND state = 'approved'
            """, [.text(pass.passTypeIdentifier), .text(pass.serialNumber), .text(payment.transactionId), .text(payment.claim)])
        guard db.changes > 0 else { throw PassStoreError.lostPayment(payment) }
    }
}
