import Foundation
import Passmint
import PassmintTestSupport
import Synchronization
import Testing

@testable import PassmintGoogle

/// The client against the stand-in: tokens cached until shortly before expiry, insert when missing, patch when
/// changed, and 429/5xx retried after the wait Google asked for.
@Suite struct GoogleWalletClientTests {
    @Test func aTokenIsReusedUntilAMinuteBeforeItExpires() async throws {
        try await GoogleHarness.with { harness async throws in
            _ = try await harness.tokens.token()
            harness.clock.advance(by: .seconds(3599 - 61))
            _ = try await harness.tokens.token()
            #expect(harness.standIn.issuedTokens == 1)
            harness.clock.advance(by: .seconds(2))
            _ = try await harness.tokens.token()
            #expect(harness.standIn.issuedTokens == 2, "renewed within the last minute")
        }
    }

    @Test func callersAskingAtOnceShareOneExchange() async throws {
        try await GoogleHarness.with { harness async throws in
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 { group.addTask { try await harness.tokens.token() } }
                var seen = Set<String>()
                for try await token in group { seen.insert(token) }
                #expect(seen.count == 1)
            }
            #expect(harness.standIn.issuedTokens == 1)
        }
    }

    @Test func aRevokedTokenIsReplacedOnce() async throws {
        try await GoogleHarness.with { harness async throws in
            try await harness.client.upsertClass(GoogleHarness.loyaltyClass(), style: .loyalty)
            harness.standIn.revokeTokens()
            #expect(try await harness.client.upsertClass(GoogleHarness.loyaltyClass(), style: .loyalty) == .unchanged)
            #expect(harness.standIn.issuedTokens == 2)
        }
    }

    @Test func aClassIsInsertedThenLeftAloneThenPatched() async throws {
        try await GoogleHarness.with { harness async throws in
            let client = harness.client
            #expect(try await client.upsertClass(GoogleHarness.loyaltyClass(), style: .loyalty) == .inserted)
            #expect(try await client.upsertClass(GoogleHarness.loyaltyClass(), style: .loyalty) == .unchanged)
            #expect(harness.standIn.count("PATCH") == 0)
            #expect(try await client.upsertClass(GoogleHarness.loyaltyClass(programName: "Club"), style: .loyalty) == .patched)
            let stored = harness.standIn.stored("loyaltyClass", id: "\(GoogleHarness.issuerID).members")
            #expect(stored?["programName"] == "Club")
            #expect(try await client.upsertObject(GoogleHarness.loyaltyObject("s1"), style: .loyalty) == .inserted)
            #expect(try await client.upsertObject(GoogleHarness.loyaltyObject("s1", points: 20), style: .loyalty) == .patched)
            let object = harness.standIn.stored("loyaltyObject", id: "\(GoogleHarness.issuerID).s1")
            #expect(object?["loyaltyPoints"]?["balance"]?["int"] == 20)
        }
    }

    @Test func aBodyGoogleRefusesIsAnErrorNamingTheField() async throws {
        try await GoogleHarness.with { harness async throws in
            var body = GoogleHarness.loyaltyClass()
            body["programLabel"] = "x"
            let error = await #expect(throws: GoogleWalletError.self) { try await harness.client.upsertClass(body, style: .loyalty) }
            #expect(error?.code == .refused && error?.status == 400)
            #expect(error?.message.contains("programLabel") == true, "\(error?.message ?? "")")
        }
    }

    @Test func tooManyRequestsWaitsAsLongAsRetryAfterSays() async throws {
        try await GoogleHarness.with { harness async throws in
            harness.standIn.failNext([.init(status: 429, retryAfter: "7"), .init(status: 503), .init(status: 502)])
            #expect(try await harness.client.upsertClass(GoogleHarness.loyaltyClass(), style: .loyalty) == .inserted)
            #expect(harness.recordedWaits == [.seconds(7), .seconds(1), .seconds(2)], "Retry-After, then 0.5 s doubling by attempt")
        }
    }

    @Test func retryAfterAsAnHTTPDateIsHonoured() async throws {
        try await GoogleHarness.with { harness async throws in
            let date = HTTPDate.string(harness.clock.date.addingTimeInterval(30))
            harness.standIn.failNext([.init(status: 429, retryAfter: date)])
            try await harness.client.upsertClass(GoogleHarness.loyaltyClass(), style: .loyalty)
            #expect(harness.recordedWaits == [.seconds(30)])
        }
    }

    @Test func aBusyTokenEndpointIsWaitedForLikeTheAPI() async throws {
        try await GoogleHarness.with { harness async throws in
            harness.standIn.failNextTokens([.init(status: 503), .init(status: 429)])
            #expect(try await harness.client.upsertClass(GoogleHarness.loyaltyClass(), style: .loyalty) == .inserted)
            #expect(harness.recordedWaits == [.milliseconds(500), .seconds(1)])
            #expect(harness.standIn.issuedTokens == 1)
        }
    }

    @Test func aRefusedAssertionIsNotRetried() async throws {
        try await GoogleHarness.with { harness async throws in
            let stranger = try TestServiceAccount(folder: TestEnvironment.temporaryFolder("stranger"))
            let keyFile = try stranger.writeKeyFile(tokenURI: harness.standIn.tokenURL.absoluteString)
            let tokens = GoogleAccessTokens(
                key: try ServiceAccountKey(contentsOf: keyFile.path), http: harness.http, now: harness.clock.today)
            let waits = WaitLog()
            let retry = GoogleRetry { duration in waits.list.withLock { $0.append(duration) } }
            let client = GoogleWalletClient(apiURL: harness.standIn.url, tokens: tokens, http: harness.http, retry: retry)
            let error = await #expect(throws: GoogleWalletError.self) {
                try await client.upsertClass(GoogleHarness.loyaltyClass(), style: .loyalty)
            }
            #expect(error?.code == .authenticationFailed && error?.status == 400)
            #expect(waits.list.withLock { $0.isEmpty })
        }
    }

    @Test func googleDownAfterEveryAttemptIsUnavailable() async throws {
        try await GoogleHarness.with(maxAttempts: 3) { harness async throws in
            harness.standIn.failNext(Array(repeating: .init(status: 500), count: 3))
            let error = await #expect(throws: GoogleWalletError.self) {
                try await harness.client.upsertClass(GoogleHarness.loyaltyClass(), style: .loyalty)
            }
            #expect(error?.code == .unavailable && error?.status == 500)
            #expect(harness.recordedWaits.count == 2)
        }
    }

    @Test func twoWritersRacingForOneObjectBothSucceed() async throws {
        try await GoogleHarness.with { harness async throws in
            try await harness.client.upsertClass(GoogleHarness.loyaltyClass(), style: .loyalty)
            let outcomes = try await withThrowingTaskGroup(of: GoogleWalletClient.Outcome.self) { group in
                for points in [1, 2, 3, 4] {
                    group.addTask {
                        try await harness.client.upsertObject(GoogleHarness.loyaltyObject("race", points: points), style: .loyalty)
                    }
                }
                var outcomes: [GoogleWalletClient.Outcome] = []
                for try await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            #expect(outcomes.filter { $0 == .inserted }.count == 1)
            #expect(
                harness.standIn.received.filter { $0.method == "POST" && $0.path.hasSuffix("loyaltyObject") && $0.status == 200 }.count == 1
            )
        }
    }
}
