import Foundation
import Passmint
import PassmintTestSupport
import Synchronization

@testable import PassmintGoogle

/// A service account, a Google stand-in that trusts it, and a client pointed at the stand-in with a clock that moves
/// only when told and a sleeper that records each wait instead of waiting.
final class GoogleHarness: Sendable {
    static let issuerID = "3388000000022222222"

    let folder: URL
    let account: TestServiceAccount
    let standIn: GoogleWalletStandIn
    let keyFile: URL
    let key: ServiceAccountKey
    let clock: ManualClock
    let http = GoogleHTTP()
    let waits = WaitLog()
    let tokens: GoogleAccessTokens
    let client: GoogleWalletClient

    init(maxAttempts: Int = 4, tokenLifetime: Int = 3599) throws {
        folder = TestEnvironment.temporaryFolder("google")
        account = try TestServiceAccount(folder: folder)
        let clock = ManualClock()
        self.clock = clock
        standIn = try GoogleWalletStandIn(account: account, issuerID: Self.issuerID, tokenLifetime: tokenLifetime, now: clock.today)
        keyFile = try account.writeKeyFile(tokenURI: standIn.tokenURL.absoluteString)
        key = try ServiceAccountKey(contentsOf: keyFile.path)
        tokens = GoogleAccessTokens(key: key, http: http, now: clock.today)
        let waits = self.waits
        let retry = GoogleRetry(maxAttempts: maxAttempts, firstDelay: .milliseconds(500)) { duration in
            waits.list.withLock { $0.append(duration) }
        }
        client = GoogleWalletClient(apiURL: standIn.url, tokens: tokens, http: http, retry: retry, now: clock.today)
    }

    /// Runs `body` with a new harness and shuts it down after, whether `body` threw or not.
    static func with(
        maxAttempts: Int = 4, tokenLifetime: Int = 3599, _ body: (GoogleHarness) async throws -> Void
    ) async throws {
        let harness = try GoogleHarness(maxAttempts: maxAttempts, tokenLifetime: tokenLifetime)
        do {
            try await body(harness)
            await harness.shutdown()
        } catch {
            await harness.shutdown()
            throw error
        }
    }

    var recordedWaits: [Duration] { waits.list.withLock { $0 } }

    func shutdown() async {
        try? await http.shutdown()
        standIn.shutdown()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A loyalty class the discovery schema accepts.
    static func loyaltyClass(_ suffix: String = "members", programName: String = "Members") -> JSONObject {
        [
            "id": .string("\(issuerID).\(suffix)"), "issuerName": "Passmint Coffee", "programName": .string(programName),
            "reviewStatus": "UNDER_REVIEW", "hexBackgroundColor": "#3c414c",
        ]
    }

    static func loyaltyObject(_ serial: String, classSuffix: String = "members", points: Int = 10) -> JSONObject {
        [
            "id": .string("\(issuerID).\(serial)"), "classId": .string("\(issuerID).\(classSuffix)"), "state": "ACTIVE",
            "loyaltyPoints": ["label": "Points", "balance": ["int": .number(JSONNumber(points))]],
            "barcode": ["type": "QR_CODE", "value": .string(serial), "alternateText": .string(serial)],
        ]
    }
}

/// Asks for a token with another key file, against the harness's stand-in and clock.
struct GoogleAccessTokensProbe {
    let keyFile: URL
    let harness: GoogleHarness

    /// The error message, or nil when a token was issued.
    func failure() async -> String? {
        do {
            let key = try ServiceAccountKey(contentsOf: keyFile.path)
            _ = try await GoogleAccessTokens(key: key, http: harness.http, now: harness.clock.today).token()
            return nil
        } catch {
            return error.message
        }
    }
}

/// The waits the client asked for, in order.
final class WaitLog: Sendable {
    let list = Mutex<[Duration]>([])
}
