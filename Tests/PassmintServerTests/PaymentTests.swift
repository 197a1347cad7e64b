import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOSSL
import Passmint
import PassmintPay
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Synchronization
import Testing

/// `POST /api/v1/payments`: tokens made by `Tests/ApplePay/make_tokens.py` are verified, decrypted, approved (by no
/// processor, or by a processor stand-in over HTTPS that checks the request's signature) and pay for exactly one pass;
/// a declined or failed payment issues nothing, a replay is refused, two racing requests issue one pass, a payment
/// left approved by a node that died is finished by the next request, and no log line holds the payment data. On both
/// stores.
@Suite struct PaymentTests {
    static let secret = "processor-secret-0123456789abcdefghijklmnop"

    /// Every log line the service under test writes, message and metadata.
    final class LogCapture: Sendable {
        let lines = Mutex<[String]>([])
        var text: String { lines.withLock { $0.joined(separator: "\n") } }
    }

    struct CapturingLogHandler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.lines.withLock { $0.append("\(event.level) \(event.message) \(all)") }
            TestEvents.ring()
        }
    }

    /// A processor stand-in: checks each request's `Passmint-Signature` at `clock`'s time, declines the transaction
    /// ids in `declining`, answers 500 to the first `failing` requests, approves the rest.
    final class Processor: Sendable {
        /// How many requests are still to be answered 500.
        final class Failures: Sendable {
            let count = Mutex(0)
        }

        /// What runs while the processor is asked, before it answers (another request racing the payment).
        final class WhileAsked: Sendable {
            let action = Mutex<(@Sendable () -> Void)?>(nil)
        }

        let standIn: TLSStandIn
        let failing = Failures()
        let whileAsked = WhileAsked()
        let declining: Set<String>

        init(clock: ManualClock, declining: Set<String> = []) async throws {
            let failures = failing
            let whileAsked = whileAsked
            self.declining = declining
            let folder = TestEnvironment.temporaryFolder("processor")
            standIn = try await offPool {
                Result {
                    try TLSStandIn(folder: folder) { request in
                        do {
                            try WebhookSignature.verify(
                                payload: request.body, header: request.headers["passmint-signature"] ?? "", secret: PaymentTests.secret,
                                now: clock.date)
                        } catch {
                            return TLSStandIn.Answer(401, #"{"error": "bad signature"}"#)
                        }
                        if failures.count.withLock({ count in
                            defer { count = max(0, count - 1) }
                            return count > 0
                        }) {
                            return TLSStandIn.Answer(500)
                        }
                        whileAsked.action.withLock { $0 }?()
                        let transaction = request.json["transactionId"]?.stringValue ?? ""
                        if declining.contains(transaction) {
                            return TLSStandIn.Answer(200, #"{"approved": false, "reason": "insufficient funds"}"#)
                        }
                        return TLSStandIn.Answer(200, #"{"approved": true, "reference": "auth-\#(transaction.prefix(8))"}"#)
                    }
                }
            }.get()
        }

        var configuration: ApplePayConfiguration.Processor {
            get throws {
                ApplePayConfiguration.Processor(
                    url: URL(string: standIn.url + "/authorize")!, secret: PaymentTests.secret,
                    trustRoots: try NIOSSLCertificate.fromPEMFile(standIn.certificateFile))
            }
        }
    }

    static func vectors() throws -> ApplePayVectors { try TestEnvironment.applePayVectors() }

    /// What make_tokens.py recorded about a token.
    static func manifest(_ name: String) throws -> JSONValue {
        let path = try vectors().path("manifest.json")
        return try #require(try JSONParser.value(Array(try Data(contentsOf: URL(fileURLWithPath: path))))[name])
    }

    /// `body` with a payment service on a new store of `kind` (at `clock`), served in-process.
    static func withService(
        _ kind: StoreKind, clock: ManualClock, processor: Processor? = nil, log: LogCapture = LogCapture(),
        _ body: @escaping @Sendable (any PassStore, ServiceCore, any ServiceClient) async throws -> Void
    ) async throws {
        try await withStore(kind, clock: clock) { store in
            let core = try Self.core(store: store, clock: clock, processor: processor, log: log)
            try await buildApplication(core: core, logger: .init(label: "test")).serviceTest(.router) { client in
                try await body(store, core, client)
            }
        }
    }

    /// The service, with the test CA's merchant keys (verified against the test root) and `processor` if any.
    static func core(store: any PassStore, clock: ManualClock, processor: Processor? = nil, log: LogCapture) throws -> ServiceCore {
        var configuration = try ServiceHarness.configuration()
        let vectors = try vectors()
        let root = try Certificate(contentsOf: vectors.path("root.pem"))
        let keys = try ["merchant-ec", "merchant-ec-2", "merchant-rsa"].map {
            try MerchantKey(certificatePath: vectors.path("\($0).pem"), keyPath: vectors.path("\($0)-key.pem"))
        }
        var applePay = ApplePayConfiguration(
            decryptor: try PaymentTokenDecryptor(merchantKeys: keys, verifier: PaymentSignatureVerifier(testOnlyRoot: root)))
        applePay.processor = try processor?.configuration
        configuration.applePay = applePay
        configuration.linkSecret = "payment-tests-link-secret-0123456789abcdef"
        let logger = Logger(label: "test.payments") { _ in CapturingLogHandler(capture: log) }
        return ServiceCore(configuration: configuration, store: store, push: RecordingPushSender(), logger: logger, clock: clock.today)
    }

    /// The pass a token buys: Loyalty data with a serial named after the token.
    static func data(_ token: String) throws -> JSONObject { try ServiceHarness.loyaltyData(serial: "paid-\(token)") }

    static func body(_ token: String, reveal: Bool = false) throws -> ByteBuffer {
        var object: JSONObject = [
            "token": try JSONParser.value(try vectors().token(token)), "template": "Loyalty", "data": .object(try data(token)),
        ]
        if reveal { object["reveal"] = true }
        return ByteBuffer(bytes: JSONWriter.data(.object(object), style: .compact))
    }

    static let headers: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)", .contentType: "application/json"]

    static func pay(_ client: some ServiceClient, _ token: String, reveal: Bool = false, key: String? = nil) async throws
        -> ServiceResponse
    {
        var headers = Self.headers
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        return try await client.execute(uri: "/api/v1/payments", method: .post, headers: headers, body: try body(token, reveal: reveal))
    }

    static func json(_ response: ServiceResponse) throws -> JSONValue { try JSONParser.value(Array(response.body.readableBytesView)) }

    static func code(_ response: ServiceResponse) throws -> String? { try APIErrorTests.error(response)["code"]?.stringValue }

    /// A refusal's status and code: `409 payment-replayed`.
    static func refusal(_ response: ServiceResponse) throws -> String { "\(response.status.code) \(try code(response) ?? "")" }

    static func passCount(_ store: any PassStore) async throws -> Int {
        try await store.passKeys(template: "Loyalty", after: nil, limit: 100).count
    }

    /// The account number and cryptogram of a token's plaintext: what must never be logged.
    static func secrets(_ token: String) throws -> [String] {
        let plaintext = try #require(try manifest(token)["plaintext"]?.objectValue)
        let details = plaintext["paymentData"]?.objectValue ?? [:]
        return [plaintext["applicationPrimaryAccountNumber"], details["onlinePaymentCryptogram"], details["emvData"]]
            .compactMap { $0?.stringValue }
    }

    @Test(arguments: StoreKind.allCases)
    func withoutAProcessorAPaymentIssuesThePassOnceAndAnswersItsLinksAndTheMaskedPayment(_ kind: StoreKind) async throws {
        let clock = ManualClock(date: ApplePayVectors.verifyAt)
        let log = LogCapture()
        try await Self.withService(kind, clock: clock, log: log) { store, core, client in
            let paid = try await Self.pay(client, "ec")
            #expect(paid.status == .created)
            let answer = try Self.json(paid)
            let serial = try #require(answer["serialNumber"]?.stringValue)
            #expect(serial == "paid-ec")
            #expect(paid.headers[.location] == "/api/v1/passes/\(ServiceHarness.passType)/paid-ec")
            #expect(answer["links"]?["add"]?.stringValue?.hasPrefix("https://passes.example.test/wallet") == true)
            #expect(answer["url"]?.stringValue == "\(ServiceHarness.publicURL)/v1/passes/\(ServiceHarness.passType)/paid-ec")
            let payment = try #require(answer["payment"])
            #expect(payment["transactionId"]?.stringValue == (try Self.manifest("ec")["transactionId"]?.stringValue))
            #expect(payment["processed"]?.boolValue == false)
            let dpan = try Self.secrets("ec")[0]
            #expect(payment["data"]?["applicationPrimaryAccountNumber"]?.stringValue == DecryptedPayment.masked(dpan))
            #expect(try await Self.passCount(store) == 1)
            let record = try await store.payment(transactionId: try #require(payment["transactionId"]?.stringValue))
            #expect(record?.state == .issued && record?.pass?.serialNumber == "paid-ec")

            // The same token again is a replay: refused, nothing more issued.
            let replay = try await Self.pay(client, "ec")
            #expect(try Self.refusal(replay) == "409 payment-replayed")
            #expect(try await Self.passCount(store) == 1)

            // reveal: the payment data in full, but never kept with an Idempotency-Key's answer.
            let kept = try await Self.pay(client, "rsa", reveal: true, key: UUID().uuidString)
            #expect(try Self.refusal(kept) == "400 payment-reveal-refused")
            let revealed = try await Self.pay(client, "rsa", reveal: true)
            #expect(revealed.status == .created)
            #expect(
                try Self.json(revealed)["payment"]?["data"]?["applicationPrimaryAccountNumber"]?.stringValue == Self.secrets("rsa")[0])

            // A token that does not decrypt names the key hashes; one that does not verify is refused before anything.
            let foreign = try await Self.pay(client, "wrong-hash")
            #expect(try Self.refusal(foreign) == "422 payment-undecryptable")
            let foreignMessage = try APIErrorTests.error(foreign)["message"]?.stringValue ?? ""
            #expect(foreignMessage.contains("you hold keys with hashes"))
            let tampered = try await Self.pay(client, "tamper-data")
            #expect(try Self.refusal(tampered) == "422 payment-token-unverified")
            #expect(try await Self.passCount(store) == 2)
        }
        for secret in try Self.secrets("ec") { #expect(!log.text.contains(secret), "a log line holds payment data") }
        #expect(log.text.contains("payment approved and pass issued"))
    }

    @Test(arguments: StoreKind.allCases)
    func aProcessorApprovesOrDeclinesAndAFailedCallIssuesNothingUntilTheRetry(_ kind: StoreKind) async throws {
        let clock = ManualClock(date: ApplePayVectors.verifyAt)
        let log = LogCapture()
        let declined = try #require(try Self.manifest("ec-2")["transactionId"]?.stringValue)
        let processor = try await Processor(clock: clock, declining: [declined])
        defer { processor.standIn.shutdown() }
        try await Self.withService(kind, clock: clock, processor: processor, log: log) { store, core, client in
            let paid = try await Self.pay(client, "ec")
            #expect(paid.status == .created)
            let payment = try Self.json(paid)["payment"]
            #expect(payment?["processed"]?.boolValue == true)
            let transaction = try #require(payment?["transactionId"]?.stringValue)
            #expect(payment?["reference"]?.stringValue == "auth-\(transaction.prefix(8))")
            let asked = try #require(processor.standIn.received.first)
            #expect(asked.headers["idempotency-key"] == transaction)
            #expect(asked.json["payment"]?["applicationPrimaryAccountNumber"]?.stringValue == (try Self.secrets("ec")[0]))
            #expect(asked.json["template"]?.stringValue == "Loyalty")

            let refused = try await Self.pay(client, "ec-2")
            #expect(try Self.refusal(refused) == "402 payment-declined")
            let reason = try APIErrorTests.error(refused)["message"]?.stringValue ?? ""
            #expect(reason.contains("insufficient funds"))
            #expect(try await Self.passCount(store) == 1, "a declined payment issues nothing")
            let again = try await Self.pay(client, "ec-2")
            #expect(try Self.refusal(again) == "409 payment-replayed")
            #expect(processor.standIn.received.count == 2, "a declined token is not sent to the processor again")
            #expect(try await store.payment(transactionId: declined)?.state == .declined)

            // The processor fails once: 502, nothing issued; the same request again asks again and issues.
            processor.failing.count.withLock { $0 = 1 }
            let failed = try await Self.pay(client, "rsa")
            #expect(try Self.refusal(failed) == "502 payment-processor-failed")
            #expect(try await Self.passCount(store) == 1)
            let retried = try await Self.pay(client, "rsa")
            #expect(retried.status == .created)
            #expect(try await Self.passCount(store) == 2)
            #expect(processor.standIn.received.count == 4)
            #expect(Set(processor.standIn.received.suffix(2).map { $0.headers["idempotency-key"] }).count == 1)
        }
        for token in ["ec", "ec-2", "rsa"] {
            for secret in try Self.secrets(token) { #expect(!log.text.contains(secret), "a log line holds payment data of \(token)") }
        }
        #expect(log.text.contains("payment declined"))
    }

    @Test(arguments: StoreKind.allCases)
    func twoRequestsRacingWithOneTokenIssueOnePass(_ kind: StoreKind) async throws {
        let clock = ManualClock(date: ApplePayVectors.verifyAt)
        try await Self.withService(kind, clock: clock) { store, core, client in
            async let first = Self.pay(client, "ec-whole-appdata")
            async let second = Self.pay(client, "ec-whole-appdata")
            let answers = try await [first, second]
            #expect(answers.map(\.status.code).sorted() == [201, 409])
            let loser = try #require(answers.first { $0.status == .conflict })
            #expect(["payment-in-progress", "payment-replayed"].contains(try Self.code(loser)))
            #expect(try await Self.passCount(store) == 1)
        }
    }

    /// Payments declined or issued are kept as long as events (90 days by default), then pruned with them; one still to
    /// carry on stays. A replay of a pruned payment's token is refused as an old token.
    @Test(arguments: StoreKind.allCases)
    func finishedPaymentsArePrunedWithTheEventsAndAReplayIsStillRefused(_ kind: StoreKind) async throws {
        let clock = ManualClock(date: ApplePayVectors.verifyAt)
        try await Self.withService(kind, clock: clock) { store, core, client in
            #expect(try await Self.pay(client, "ec").status == .created)
            let issued = try #require(try Self.manifest("ec")["transactionId"]?.stringValue)
            var claims: [String: String] = [:]
            for transaction in ["declined-1", "received-1"] {
                guard
                    case .claimed(let claim, _) = try await store.claimPayment(
                        transactionId: transaction, requestHash: "h", staleBefore: clock.date)
                else { throw PaymentTestFailure("the claim of \(transaction) was refused") }
                claims[transaction] = claim
            }
            try await store.decidePayment(
                transactionId: "declined-1", claim: claims["declined-1"] ?? "", approved: false, outcome: "no")
            clock.advance(by: .seconds(89 * 86_400))
            _ = try await core.eventPruner.prune()
            #expect(try await store.payment(transactionId: issued)?.state == .issued, "kept for the events' retention")
            clock.advance(by: .seconds(2 * 86_400))
            _ = try await core.eventPruner.prune()
            #expect(try await store.payment(transactionId: issued) == nil)
            #expect(try await store.payment(transactionId: "declined-1") == nil)
            #expect(try await store.payment(transactionId: "received-1")?.state == .received, "a payment to carry on stays")
            #expect(try Self.refusal(try await Self.pay(client, "ec")) == "422 payment-token-expired")
            #expect(try await Self.passCount(store) == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPaymentLeftApprovedByANodeThatDiedIsIssuedOnceByTheNextRequest(_ kind: StoreKind) async throws {
        let clock = ManualClock(date: ApplePayVectors.verifyAt)
        try await withStore(kind, clock: clock) { store in
            let core = try Self.core(store: store, clock: clock, log: LogCapture())
            // What a node leaves when it dies between the approval and the issue: the payment approved under its claim.
            let transaction = try #require(try Self.manifest("ec")["transactionId"]?.stringValue)
            let hash = PaymentService.requestHash(template: "Loyalty", data: try Self.data("ec"), images: nil)
            guard
                case .claimed(let claim, _) = try await store.claimPayment(
                    transactionId: transaction, requestHash: hash, staleBefore: clock.date)
            else { throw PaymentTestFailure("the first claim was refused") }
            try await store.decidePayment(transactionId: transaction, claim: claim, approved: true, outcome: "auth-1")
            try await buildApplication(core: core, logger: .init(label: "test")).serviceTest(.router) { client in
                let held = try await Self.pay(client, "ec")
                #expect(try Self.refusal(held) == "409 payment-in-progress")
                #expect(held.headers[.retryAfter] == "1")
                // Ten minutes on, the claim is abandoned; the token, verified at the time it was received, is still good.
                clock.advance(by: .seconds(11 * 60))
                let finished = try await Self.pay(client, "ec")
                #expect(finished.status == .created)
                #expect(try Self.json(finished)["payment"]?["reference"]?.stringValue == "auth-1")
                let again = try await Self.pay(client, "ec")
                #expect(try Self.refusal(again) == "409 payment-replayed")
                #expect(try await Self.passCount(store) == 1)
                // A token first seen now, eleven minutes after it was signed, is out of its window.
                let late = try await Self.pay(client, "rsa")
                #expect(try Self.refusal(late) == "422 payment-token-expired")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anIssueThatFailsAfterTheApprovalKeepsTheApprovalAndNeverAsksTheProcessorAgain(_ kind: StoreKind) async throws {
        let clock = ManualClock(date: ApplePayVectors.verifyAt)
        let processor = try await Processor(clock: clock)
        defer { processor.standIn.shutdown() }
        try await withStore(kind, clock: clock) { store in
            let core = try Self.core(store: store, clock: clock, processor: processor, log: LogCapture())
            let taken = StoredPass(
                passTypeIdentifier: ServiceHarness.passType, serialNumber: "paid-ec", authenticationToken: "token-0123456789abcdef",
                template: "Loyalty", dataJSON: #"{"points":1}"#)
            try await buildApplication(core: core, logger: .init(label: "test")).serviceTest(.router) { client in
                // While the processor approves, another issue takes the pass's serial: the issue fails after the approval.
                processor.whileAsked.action.withLock {
                    $0 = {
                        let done = DispatchSemaphore(value: 0)  // on the stand-in's own thread, not the cooperative pool
                        Task {
                            _ = try? await store.insert(taken)
                            done.signal()
                        }
                        done.wait()
                    }
                }
                let failed = try await Self.pay(client, "ec")
                #expect(try Self.refusal(failed) == "409 pass-exists")
                let transaction = try #require(try Self.manifest("ec")["transactionId"]?.stringValue)
                #expect(try await store.payment(transactionId: transaction)?.state == .approved)
                #expect(processor.standIn.received.count == 1)
                // Sent again as it was, it stays refused and the processor is not asked twice: the approval is recorded.
                let again = try await Self.pay(client, "ec")
                #expect(try Self.refusal(again) == "409 pass-exists")
                #expect(processor.standIn.received.count == 1)
                #expect(try await Self.passCount(store) == 1)

                // A serial taken before the payment is refused before anything is paid or recorded.
                let rsa = try #require(try Self.manifest("rsa")["transactionId"]?.stringValue)
                _ = try await store.insert(
                    StoredPass(
                        passTypeIdentifier: ServiceHarness.passType, serialNumber: "paid-rsa",
                        authenticationToken: "token-0123456789abcdef",
                        template: "Loyalty", dataJSON: #"{"points":1}"#))
                let early = try await Self.pay(client, "rsa")
                #expect(try Self.refusal(early) == "409 pass-exists")
                #expect(processor.standIn.received.count == 1)
                #expect(try await store.payment(transactionId: rsa) == nil)
            }
        }
    }
}

struct PaymentTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
