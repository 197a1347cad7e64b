import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passmint
import PassmintServer
import PassmintStore
import PassmintTestSupport
import Testing

/// `Idempotency-Key` on the API's creating POSTs: a retry gets the first answer, another request with the key is
/// refused, two racing requests with one key create one pass, and keys are forgotten after a day. On both stores.
@Suite struct IdempotencyTests {
    static func headers(key: String, json: Bool = true) -> HTTPFields {
        var headers: HTTPFields = [.authorization: "Bearer \(ServiceHarness.apiKey)"]
        headers[HTTPField.Name("Idempotency-Key")!] = key
        if json { headers[.accept] = "application/json" }
        return headers
    }

    /// Loyalty data without a serial: each pass created gets a new one, so a second creation would show.
    static func body(points: Int = 10) throws -> ByteBuffer {
        var data = try ServiceHarness.loyaltyData(serial: "")
        data["serialNumber"] = nil
        data["points"] = .number(JSONNumber(points))
        return APIErrorTests.issueBody(data)
    }

    static func passCount(_ store: any PassStore) async throws -> Int {
        try await store.passKeys(template: "Loyalty", after: nil, limit: 100).count
    }

    @Test(arguments: StoreKind.allCases)
    func aRetryGetsTheFirstAnswerAndAnotherBodyIsRefused(_ kind: StoreKind) async throws {
        let clock = ManualClock()
        try await withStore(kind, clock: clock) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender(), clock: clock.today)
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                let key = UUID().uuidString
                let first = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: Self.headers(key: key), body: try Self.body())
                #expect(first.status == .created)
                let serial = try #require(try JSONParser.value(Array(first.body.readableBytesView))["serialNumber"]?.stringValue)
                let again = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: Self.headers(key: key), body: try Self.body())
                #expect(again.status == .created, "not 409: the retry gets the first answer")
                #expect(again.body == first.body && again.headers[.eTag] == first.headers[.eTag])
                #expect(again.headers[.contentType] == first.headers[.contentType])
                #expect(again.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
                #expect(try await Self.passCount(store) == 1)

                let other = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: Self.headers(key: key), body: try Self.body(points: 11))
                #expect(other.status == .unprocessableContent)
                #expect(try APIErrorTests.error(other)["code"] == "idempotency-key-reused")
                let elsewhere = try await client.execute(
                    uri: "/api/v1/bundles", method: .post, headers: Self.headers(key: key), body: try Self.body())
                #expect(try APIErrorTests.error(elsewhere)["code"] == "idempotency-key-reused", "the same key on another path")
                #expect(try await Self.passCount(store) == 1)
                #expect(try await store.pass(passTypeIdentifier: ServiceHarness.passType, serialNumber: serial) != nil)

                // A key is the API credential's: without it, nothing is answered.
                var anonymous = Self.headers(key: key)
                anonymous[.authorization] = nil
                #expect(
                    try await client.execute(uri: "/api/v1/passes", method: .post, headers: anonymous, body: try Self.body()).status
                        == .unauthorized)

                // After a day the key is forgotten (the hourly prune round), and may name a new request.
                clock.advance(by: .seconds(25 * 3600))
                try await service.eventPruner.prune()
                let later = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: Self.headers(key: key), body: try Self.body(points: 11))
                #expect(later.status == .created)
                #expect(try await Self.passCount(store) == 2)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aFailedRequestGivesItsKeyUpAndBundlesAndSignedPassesAreAnsweredAgain(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let service = try ServiceHarness.service(store: store, push: RecordingPushSender())
            try await buildApplication(core: service, logger: .init(label: "test")).serviceTest(.router) { client in
                let key = UUID().uuidString
                let refused = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: Self.headers(key: key, json: false),
                    body: APIErrorTests.issueBody([:], template: "Nope"))
                #expect(refused.status == .badRequest)
                // Corrected, the request with the same key is done: a refusal keeps no answer.
                let signed = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: Self.headers(key: key, json: false), body: try Self.body())
                #expect(signed.status == .created && signed.headers[.contentType] == "application/vnd.apple.pkpass")
                let again = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: Self.headers(key: key, json: false), body: try Self.body())
                #expect(again.body == signed.body && again.headers[.lastModified] == signed.headers[.lastModified])

                let order = ByteBuffer(
                    bytes: JSONWriter.data(
                        ["passes": [["template": "Loyalty", "data": .object(try ServiceHarness.loyaltyData(serial: unique("I")))]]],
                        style: .compact))
                let bundleKey = UUID().uuidString
                let bundle = try await client.execute(
                    uri: "/api/v1/bundles", method: .post, headers: Self.headers(key: bundleKey), body: order)
                #expect(bundle.status == .created)
                let retried = try await client.execute(
                    uri: "/api/v1/bundles", method: .post, headers: Self.headers(key: bundleKey), body: order)
                #expect(retried.status == .created && retried.body == bundle.body)
                #expect(try await Self.passCount(store) == 2)

                let bad = try await client.execute(
                    uri: "/api/v1/passes", method: .post, headers: Self.headers(key: String(repeating: "k", count: 256)),
                    body: try Self.body())
                #expect(try APIErrorTests.error(bad)["code"] == "invalid-idempotency-key")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func twoRequestsRacingWithOneKeyCreateOnePass(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            // Two nodes on one store.
            let nodes = try (0..<2).map { _ in try ServiceHarness.service(store: store, push: RecordingPushSender()) }
            try await buildApplication(core: nodes[0], logger: .init(label: "a")).serviceTest(.router) { first in
                try await buildApplication(core: nodes[1], logger: .init(label: "b")).serviceTest(.router) { second in
                    let key = UUID().uuidString
                    async let a = first.execute(
                        uri: "/api/v1/passes", method: .post, headers: Self.headers(key: key), body: try Self.body())
                    async let b = second.execute(
                        uri: "/api/v1/passes", method: .post, headers: Self.headers(key: key), body: try Self.body())
                    let answers = try await [a, b]
                    #expect(try await Self.passCount(store) == 1, "exactly one pass created")
                    let created = answers.filter { $0.status == .created }
                    #expect(created.count >= 1)
                    #expect(Set(created.map { String(buffer: $0.body) }).count == 1, "both 201s are the same answer")
                    for answer in answers where answer.status != .created {
                        #expect(answer.status == .conflict && answer.headers[.retryAfter] == "1")
                        #expect(try APIErrorTests.error(answer)["code"] == "idempotency-key-in-progress")
                    }
                    // Sent again once answered, each gets the first answer.
                    let later = try await second.execute(
                        uri: "/api/v1/passes", method: .post, headers: Self.headers(key: key), body: try Self.body())
                    #expect(later.status == .created && later.body == created[0].body)
                }
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theStoreGivesAKeyToOneOfManyClaimsAndAnAbandonedClaimIsTakenOver(_ kind: StoreKind) async throws {
        let clock = ManualClock()
        try await withStore(kind, clock: clock) { store in
            let key = UUID().uuidString
            let claims = try await withThrowingTaskGroup(of: IdempotencyClaim.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await store.claimIdempotencyKey(scope: "s", key: key, staleBefore: clock.date.addingTimeInterval(-600))
                    }
                }
                return try await group.reduce(into: [IdempotencyClaim]()) { $0.append($1) }
            }
            var won: [String] = []
            for case .claimed(let claim) in claims { won.append(claim) }
            #expect(won.count == 1 && claims.filter { $0 == .inProgress }.count == 7, "\(claims)")
            // Its node stopped before answering: after 10 minutes another request takes the key over, and the first
            // claim can no longer settle it.
            clock.advance(by: .seconds(601))
            let taken = try await store.claimIdempotencyKey(scope: "s", key: key, staleBefore: clock.date.addingTimeInterval(-600))
            guard case .claimed(let claim) = taken else {
                Issue.record("\(taken)")
                return
            }
            let stale = IdempotentAnswer(requestHash: "h", status: 500, headers: "", body: [])
            try await store.settleIdempotencyKey(scope: "s", key: key, claim: won[0], answer: stale)
            let answer = IdempotentAnswer(requestHash: "h", status: 201, headers: "Content-Type: application/json", body: Array("{}".utf8))
            try await store.settleIdempotencyKey(scope: "s", key: key, claim: claim, answer: answer)
            let found = try await store.claimIdempotencyKey(scope: "s", key: key, staleBefore: clock.date.addingTimeInterval(-600))
            #expect(found == .answered(answer))
            #expect(try await store.claimIdempotencyKey(scope: "other", key: key, staleBefore: clock.date) != found, "keys are per scope")
            #expect(try await store.pruneIdempotencyKeys(claimedBefore: clock.date.addingTimeInterval(1)) == 2)
        }
    }
}
