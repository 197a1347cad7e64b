public import Foundation

/// A payment the service received (`POST /api/v1/payments`), by the token's `transactionId`: the row that refuses a
/// token seen before (a replay) and carries the payment from received to approved (or declined) to issued, so that a
/// retry after a crash finishes the issue instead of paying or issuing twice. It holds no payment data.
public struct PaymentRecord: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Claimed; the processor has not approved it yet (or its answer was lost).
        case received
        /// The processor approved it (or no processor is configured); the pass is not issued yet.
        case approved
        /// The processor declined it: nothing is issued, the token is spent.
        case declined
        /// The pass is issued, in the transaction that wrote this state.
        case issued
    }

    public var transactionId: String
    public var state: State
    /// What identifies the request (the token's and the pass's template and data): a retry must send the same.
    public var requestHash: String
    /// The processor's reference (approved) or reason (declined); never payment data.
    public var outcome: String?
    /// The pass issued for it.
    public var pass: PassKey?
    /// When it was first received: the time its token is verified at again when a retry carries it on later.
    public var receivedAt: Date

    public init(
        transactionId: String, state: State, requestHash: String, outcome: String? = nil, pass: PassKey? = nil, receivedAt: Date
    ) {
        self.transactionId = transactionId
        self.state = state
        self.requestHash = requestHash
        self.outcome = outcome
        self.pass = pass
        self.receivedAt = receivedAt
    }
}

/// What claiming a payment found.
public enum PaymentClaim: Sendable, Equatable {
    /// The payment is this request's to carry on from the record's state (new: `received`; or taken over from a
    /// request that failed or whose node stopped). `claim` names this claim for the calls that follow.
    case claimed(claim: String, PaymentRecord)
    /// Another request holds it now, or it is finished (declined or issued).
    case held(PaymentRecord)
}

/// Names the payment whose pass an insert issues: the insert commits only while `claim` holds it in `approved`, and
/// marks it `issued` in the same transaction.
public struct PaymentSettlement: Sendable, Equatable {
    public var transactionId: String
    public var claim: String

    public init(transactionId: String, claim: String) {
        self.transactionId = transactionId
        self.claim = claim
    }
}

/// Payments by transaction id (`payments`, SQLite migration 19, PostgreSQL 19). The primary key on the transaction id
/// makes exactly one of two requests with one token, on any nodes, the one that carries it.
public protocol PaymentStore: Sendable {
    /// Claims the payment `transactionId` for a request: inserted as `received` if absent, or taken over when its
    /// last claim was given up or made before `staleBefore` and it is neither declined nor issued.
    func claimPayment(transactionId: String, requestHash: String, staleBefore: Date) async throws -> PaymentClaim
    /// Records the processor's answer (`approved` or `declined`, with its reference or reason) while `claim` holds it.
    /// Throws `.stale` when the claim was lost.
    func decidePayment(transactionId: String, claim: String, approved: Bool, outcome: String?) async throws
    /// Gives the claim up (the request failed): the next request with the token carries on at once.
    func releasePayment(transactionId: String, claim: String) async throws
    /// The payment, or nil when the token was never received.
    func payment(transactionId: String) async throws -> PaymentRecord?
    /// Deletes the payments declined or issued that were received before `before` (a payment still to carry on stays);
    /// the number deleted. Their tokens are long past the signing-time window, so a replay is refused as an old token.
    func prunePayments(finishedBefore before: Date) async throws -> Int
}

extension PassStoreError {
    /// What a payment's write throws when the payment is no longer this request's (``PaymentStore``): another took it over.
    public static func lostPayment(_ settlement: PaymentSettlement) -> PassStoreError {
        PassStoreError(
            .stale,
            "the payment \(settlement.transactionId) is no longer this request's (approved under its claim): another request took it over")
    }
}
