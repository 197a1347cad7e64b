import Crypto
package import Foundation
import HTTPTypes
import Logging
package import Passmint
package import PassmintPay
import PassmintStore

/// Pay, then issue (`POST /api/v1/payments`): verifies and decrypts an Apple Pay token with the merchant keys held,
/// checks the pass it buys, claims the token's `transactionId` in the store (a token seen before is a replay), has the
/// processor approve it, and issues the pass in the transaction that marks the payment issued. All or nothing: a
/// declined or failed payment issues nothing. A payment carries its state (received → approved → issued), so the same
/// request sent again after a failure or a crash carries on where it stopped: the processor is asked again only while
/// no decision is stored, and the pass is issued exactly once. Payment data is never logged.
package struct PaymentService: Sendable {
    let configuration: ApplePayConfiguration
    let processor: PaymentProcessorClient?
    let issuing: IssuingService
    let store: any PassStore
    let logger: Logger
    let clock: @Sendable () -> Date

    /// A claim not settled within this long was made by a request whose node stopped: the next request takes it over.
    package static let abandonedAfter: TimeInterval = 10 * 60

    init(
        configuration: ApplePayConfiguration, issuing: IssuingService, store: any PassStore, logger: Logger,
        clock: @escaping @Sendable () -> Date
    ) {
        self.configuration = configuration
        processor = configuration.processor.map { PaymentProcessorClient(processor: $0, timeout: configuration.timeout, clock: clock) }
        self.issuing = issuing
        self.store = store
        self.logger = logger
        self.clock = clock
    }

    /// A payment approved and its pass issued.
    package struct Paid: Sendable {
        package var issued: IssuingService.Issued
        package var payment: DecryptedPayment
        /// The processor's reference; nil without a processor.
        package var reference: String?
        /// Whether a processor approved it (false: no processor is configured).
        package var processed: Bool
    }

    /// Pays for a pass of `template` with `data` (and `images`, as issuing takes them) with `token` (as the app or web
    /// page sends it), at the service's clock.
    package func pay(token: [UInt8], template: String, data: JSONObject, images: JSONObject? = nil) async throws -> Paid {
        let decryptor = configuration.decryptor
        let now = clock()
        let parsed: PaymentToken
        do throws(PaymentTokenError) { parsed = try PaymentToken(json: token) } catch { throw Self.refusal(error) }
        // A token received before is verified at the time it was first received (its signing time was within the
        // window then, and may not be now): a retry after a failure or a crash carries the payment on, a replay is
        // refused as one rather than as an old token.
        let earlier = try await store.payment(transactionId: parsed.header.transactionIdHex)
        let at = earlier?.receivedAt ?? now
        let payment = try await CPUWork.run { () throws(ServiceFailure) in
            do throws(PaymentTokenError) { return try decryptor.decrypt(parsed, at: at) } catch { throw Self.refusal(error) }
        }
        // Nothing is paid for a pass that cannot be issued: its data checked, its serial free (for a new payment).
        let prepared = try await issuing.prepare(template: template, data: data, images: images)
        if earlier == nil { try await issuing.refuseTaken(prepared) }
        let hash = Self.requestHash(template: template, data: data, images: images)
        let transaction = payment.transactionId
        let claim: String
        let record: PaymentRecord
        switch try await store.claimPayment(
            transactionId: transaction, requestHash: hash, staleBefore: now.addingTimeInterval(-Self.abandonedAfter))
        {
        case .held(let held): throw Self.held(held)
        case .claimed(let claimed, let found): (claim, record) = (claimed, found)
        }
        do {
            guard record.requestHash == hash else {
                throw ServiceFailure.unprocessable(
                    "the payment \(transaction) was received with another template or data: send the request as first sent to finish it",
                    code: "payment-request-differs")
            }
            var reference = record.outcome
            if record.state == .received {
                switch try await processor?.authorize(payment, template: template) ?? .approved(reference: nil) {
                case .declined(let reason):
                    try await store.decidePayment(transactionId: transaction, claim: claim, approved: false, outcome: reason)
                    logger.info("payment declined", metadata: ["transactionId": "\(transaction)", "reason": "\(reason)"])
                    throw ServiceFailure(
                        .init(code: 402, reasonPhrase: "Payment Required"),
                        "the payment \(transaction) was declined: \(reason). Nothing was issued; ask for another payment",
                        code: "payment-declined")
                case .approved(let approved):
                    try await store.decidePayment(transactionId: transaction, claim: claim, approved: true, outcome: approved)
                    reference = approved
                }
            }
            let issued = try await issuing.issue(prepared, payment: PaymentSettlement(transactionId: transaction, claim: claim))
            logger.info(
                "payment approved and pass issued",
                metadata: [
                    "transactionId": "\(transaction)", "serialNumber": "\(issued.pass.serialNumber)", "template": "\(template)",
                ])
            return Paid(issued: issued, payment: payment, reference: reference, processed: processor != nil)
        } catch {
            await release(transaction, claim: claim)
            if let lost = error as? PassStoreError, lost.code == .stale {
                throw Self.inProgress(transaction)
            }
            throw error
        }
    }

    /// Gives the payment up for the next request (after a failure, or a decision that ended it).
    private func release(_ transaction: String, claim: String) async {
        do {
            try await store.releasePayment(transactionId: transaction, claim: claim)
        } catch {
            logger.error(
                "cannot give a payment up; the next request takes it over after 10 minutes",
                metadata: ["transactionId": "\(transaction)", "error": "\(error)"])
        }
    }

    /// What identifies a payment's request besides its token: the template, data and images it buys.
    package static func requestHash(template: String, data: JSONObject, images: JSONObject?) -> String {
        var text = template + "\n" + JSONWriter.string(.object(data), style: .compact)
        if let images { text += "\n" + JSONWriter.string(.object(images), style: .compact) }
        return hexString(Array(SHA256.hash(data: Array(text.utf8))))
    }

    /// The refusal of a token that does not verify or decrypt: 422, the library's code and message (key hashes, JSON
    /// paths, times; never payment data).
    static func refusal(_ error: PaymentTokenError) -> ServiceFailure {
        let code =
            switch error.code {
            case .invalidToken: "payment-token-invalid"
            case .noMatchingKey, .decryptionFailed, .invalidMerchantKey: "payment-undecryptable"
            case .signingTimeOutOfWindow: "payment-token-expired"
            default: "payment-token-unverified"
            }
        return ServiceFailure(.unprocessableContent, "\(error.message) (\(error.code))", code: code)
    }

    /// A token another request holds now, or one already finished.
    static func held(_ record: PaymentRecord) -> ServiceFailure {
        switch record.state {
        case .issued:
            let pass = record.pass.map { " for the pass \($0.passTypeIdentifier)/\($0.serialNumber)" } ?? ""
            return .conflict(
                "the payment \(record.transactionId) was made already\(pass): a token pays once; ask for a new payment",
                code: "payment-replayed")
        case .declined:
            return .conflict(
                "the payment \(record.transactionId) was declined already (\(record.outcome ?? "declined")): a token pays once; ask for a new payment",
                code: "payment-replayed")
        case .received, .approved:
            return inProgress(record.transactionId)
        }
    }

    static func inProgress(_ transaction: String) -> ServiceFailure {
        ServiceFailure(
            .conflict, "the payment \(transaction) is being carried out by another request: send it again in a moment to finish it",
            code: "payment-in-progress", headers: [.retryAfter: "1"])
    }

    func shutdown() async { await processor?.shutdown() }
}
