import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Passmint
import PassmintGoogle
import PassmintServer
import PassmintTestSupport
import Testing

/// Google Wallet's save/delete callbacks: classes carry the service's callback URL, and callbacks the stand-in signs
/// as Google does (a root key written to the keys file the service reads, an intermediate key) are verified and
/// recorded as `google.saved` / `google.removed` once per nonce, counted in the statistics and delivered to webhooks.
@Suite struct GoogleCallbackTests {
    static let callbackURL = ServiceHarness.publicURL + "/google/callbacks"

    /// Issues a pass whose object Google holds; its object id.
    static func issue(_ client: some ServiceClient) async throws -> String {
        let (_, answer) = try await GoogleServeTests.issue(client)
        return try GoogleServeTests.savedObject(try #require(answer["googleSaveURL"]?.stringValue)).id
    }

    /// Posts a callback the stand-in made to the path of its URL; the status and the answer's body.
    static func post(_ client: some ServiceClient, _ callback: (url: String, body: String)?) async throws -> (Int, String) {
        let callback = try #require(callback, "the object's class carries no callback URL")
        #expect(callback.url == callbackURL)
        let path = try #require(URL(string: callback.url)?.path)
        let response = try await client.execute(
            uri: path, method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: callback.body))
        return (response.status.code, String(buffer: response.body))
    }

    /// The Google saves and removals the statistics count (the last 30 days).
    static func counted(_ client: some ServiceClient) async throws -> [Int] {
        let response = try await client.execute(uri: "/api/v1/stats", method: .get, headers: StatsRoutesTests.bearer)
        let rows = try JSONParser.value(Array(response.body.readableBytesView))["intervals"]?.arrayValue ?? []
        let total = { (key: String) in rows.reduce(0) { $0 + ($1[key]?.numberValue?.intValue ?? 0) } }
        return [total("googleSaves"), total("googleRemovals")]
    }

    @Test(arguments: StoreKind.allCases)
    func aSaveAndADeletionAreCountedInTheStatistics(_ kind: StoreKind) async throws {
        try await GoogleServeHarness.withService(kind, callbacks: true) { harness, client in
            let object = try await Self.issue(client)
            let expiration = harness.clock.date.addingTimeInterval(60)
            let save = try harness.standIn.callback(objectID: object, eventType: "save", signer: harness.signer, expiration: expiration)
            let (saved, answer) = try await Self.post(client, save)
            #expect(saved == 200 && answer.contains("\"recorded\":true"), "\(answer)")
            let deletion = try harness.standIn.callback(objectID: object, eventType: "del", signer: harness.signer, expiration: expiration)
            #expect(try await Self.post(client, deletion).0 == 200)
            #expect(try await Self.counted(client) == [1, 1])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func callbacksThatDoNotVerifyAreRefusedAndRecordNothing(_ kind: StoreKind) async throws {
        try await GoogleServeHarness.withService(kind, callbacks: true) { harness, client in
            let object = try await Self.issue(client)
            let (standIn, signer, now) = (harness.standIn, harness.signer, harness.clock.date)
            func callback(_ signer: GoogleCallbackSigner, expiration: Date? = nil, recipient: String? = nil, tamper: Bool = false)
                throws -> (url: String, body: String)?
            {
                try standIn.callback(
                    objectID: object, eventType: "save", signer: signer, expiration: expiration ?? now.addingTimeInterval(60),
                    recipientID: recipient, tamper: tamper)
            }
            var expiredKey = signer
            expiredKey.intermediateExpiration = now.addingTimeInterval(-1)
            let refused: [(String, (url: String, body: String)?, String)] = [
                ("tampered", try callback(signer, tamper: true), "the message's signature does not verify"),
                ("another issuer", try callback(signer, recipient: "3388000000099999999"), "the message's signature does not verify"),
                ("expired intermediate key", try callback(expiredKey), "the intermediate signing key expired"),
                ("expired message", try callback(signer, expiration: now.addingTimeInterval(-1)), "the message expired"),
                ("unknown root key", try callback(GoogleCallbackSigner(intermediateExpiration: now.addingTimeInterval(3600))), "root key"),
            ]
            for (name, made, reason) in refused {
                let (status, answer) = try await Self.post(client, made)
                #expect(status == 401 && answer.contains(reason), "\(name): \(status) \(answer)")
            }
            let (malformed, answer) = try await Self.post(client, (Self.callbackURL, #"{"protocolVersion":"ECv2SigningOnly"}"#))
            #expect(malformed == 400 && answer.contains("signature"), "\(answer)")
            // 601 signatures of the intermediate key cost 601 verifications to anyone who could post: more than a few
            // are refused as malformed before any is verified (issue 40).
            var flooded = try JSONParser.value(Array(try #require(try callback(signer)).body.utf8)).objectValue ?? [:]
            var intermediate = flooded["intermediateSigningKey"]?.objectValue ?? [:]
            let real = try #require(intermediate["signatures"]?.arrayValue?.first)
            intermediate["signatures"] = .array(Array(repeating: real, count: 601))
            flooded["intermediateSigningKey"] = .object(intermediate)
            let (floodStatus, floodAnswer) = try await Self.post(
                client, (Self.callbackURL, JSONWriter.string(.object(flooded), style: .compact)))
            #expect(floodStatus == 400 && floodAnswer.contains("holds 601 signatures"), "\(floodAnswer)")
            // Signed right, but for an object no pass has.
            let stranger = GoogleCallbackSigner.Message(
                classID: "\(GoogleServeHarness.issuerID).Loyalty", objectID: "\(GoogleServeHarness.issuerID).nobody", eventType: "save",
                nonce: "n-stranger", expiration: now.addingTimeInterval(60))
            let unknown = try signer.body(stranger, recipientID: GoogleServeHarness.issuerID)
            #expect(try await Self.post(client, (Self.callbackURL, unknown)).0 == 404)
            #expect(try await Self.counted(client) == [0, 0])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aCallbackSentAgainIsRecordedOnceAlsoWhenBothArriveAtOnce(_ kind: StoreKind) async throws {
        try await GoogleServeHarness.withService(kind, callbacks: true) { harness, client in
            let object = try await Self.issue(client)
            let expiration = harness.clock.date.addingTimeInterval(60)
            let save = try harness.standIn.callback(objectID: object, eventType: "save", signer: harness.signer, expiration: expiration)
            #expect(try await Self.post(client, save).0 == 200)
            let (again, answer) = try await Self.post(client, save)
            #expect(again == 200 && answer.contains("\"duplicate\":true"), "\(answer)")
            // Two identical deletions at the same moment: one is recorded.
            let deletion = try harness.standIn.callback(objectID: object, eventType: "del", signer: harness.signer, expiration: expiration)
            async let first = Self.post(client, deletion)
            async let second = Self.post(client, deletion)
            let answers = [try await first.1, try await second.1]
            #expect(answers.filter { $0.contains("\"duplicate\":true") }.count == 1, "\(answers)")
            #expect(try await Self.counted(client) == [1, 1])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aWebhookSubscribedToGoogleSavesReceivesOneSigned(_ kind: StoreKind) async throws {
        let harnessClock = ManualClock()
        let receiver = try await WebhookDeliveryTests.receiver(harnessClock)
        defer { receiver.shutdown() }
        try await GoogleServeHarness.withService(kind, callbacks: true, webhooks: WebhookDeliveryTests.policy()) { harness, core, client in
            _ = try await WebhookDeliveryTests.subscribe(client, receiver.url, ["google.saved"])
            let object = try await Self.issue(client)
            let expiration = harness.clock.date.addingTimeInterval(60)
            let save = try harness.standIn.callback(objectID: object, eventType: "save", signer: harness.signer, expiration: expiration)
            #expect(try await Self.post(client, save).0 == 200)
            try await core.webhookDeliverer.drain()
            #expect(await eventually { receiver.received.count >= 1 })
            let delivery = try #require(receiver.received.first)
            #expect(receiver.received.count == 1 && delivery.json["type"]?.stringValue == "google.saved")
            #expect(delivery.signatureProblem == nil, "\(delivery.signatureProblem ?? "")")
            #expect(delivery.json["passTypeIdentifier"]?.stringValue == ServiceHarness.passType)
        }
    }

    @Test func withoutCallbackKeysClassesNameNoCallbackAndNoneIsTaken() async throws {
        try await GoogleServeHarness.withService(.sqlite) { harness, client in
            let object = try await Self.issue(client)
            let made = try harness.standIn.callback(
                objectID: object, eventType: "save", signer: harness.signer, expiration: harness.clock.date.addingTimeInterval(60))
            #expect(made == nil, "no callbackOptions.url without google-callback-keys")
            let body = try harness.signer.body(
                .init(
                    classID: "\(GoogleServeHarness.issuerID).Loyalty", objectID: object, eventType: "save", nonce: "n",
                    expiration: harness.clock.date.addingTimeInterval(60)), recipientID: GoogleServeHarness.issuerID)
            let response = try await client.execute(
                uri: "/wallet/google/callbacks", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
            #expect(response.status == .notFound)
        }
    }
    @Test func theKeysFileIsReadAgainWhenItChangesAndNotTakingCallbacksWithoutIt() async throws {
        try await GoogleServeHarness.withService(.sqlite, callbacks: true) { harness, client in
            let object = try await Self.issue(client)
            let expiration = harness.clock.date.addingTimeInterval(60)
            let file = harness.callbackKeysFile
            let kept = try Data(contentsOf: file)
            try FileManager.default.removeItem(at: file)
            let save = try harness.standIn.callback(objectID: object, eventType: "save", signer: harness.signer, expiration: expiration)
            let (unavailable, answer) = try await Self.post(client, save)
            #expect(unavailable == 503 && answer.contains("cannot read Google's signing keys"), "\(answer)")
            // Google's keys rotated: the file now holds another root only (a later modification time than before).
            let rotated = GoogleCallbackSigner(intermediateExpiration: expiration.addingTimeInterval(3600))
            try kept.write(to: file)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: file.path)
            #expect(try await Self.post(client, save).0 == 200)
            try rotated.writeKeys(to: file)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: file.path)
            let old = try harness.standIn.callback(objectID: object, eventType: "del", signer: harness.signer, expiration: expiration)
            #expect(try await Self.post(client, old).0 == 401)
            let new = try harness.standIn.callback(objectID: object, eventType: "del", signer: rotated, expiration: expiration)
            #expect(try await Self.post(client, new).0 == 200)
            #expect(try await Self.counted(client) == [1, 1])
        }
    }
}
