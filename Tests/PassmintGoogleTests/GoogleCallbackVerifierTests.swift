import Foundation
import Passmint
import PassmintGoogle
import PassmintTestSupport
import Testing

/// ``GoogleCallbackVerifier`` against callbacks the test signer makes as Google does, each also checked by Python's
/// `cryptography` (Tests/Google/check_callback.py), so the signer and the verifier cannot agree on a wrong protocol.
@Suite struct GoogleCallbackVerifierTests {
    static let issuer = "3388000000033333333"
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    static func message(_ event: String = "save", expiration: Date = now.addingTimeInterval(60)) -> GoogleCallbackSigner.Message {
        .init(
            classID: "\(issuer).Loyalty", objectID: "\(issuer).pass.example.A-1", eventType: event, nonce: "nonce-1", expiration: expiration
        )
    }

    static func keys(_ signer: GoogleCallbackSigner, rootExpiration: Date? = nil) throws -> GoogleSigningKeys {
        try GoogleSigningKeys(json: Array(signer.keysJSON(rootExpiration: rootExpiration).utf8), source: "keys.json")
    }

    /// Python's verdict on `body` with the signer's root key: the signed message, or nil when it refuses.
    static func python(_ body: String, _ signer: GoogleCallbackSigner, issuer: String = issuer) throws -> String? {
        let folder = TestEnvironment.temporaryFolder("google-callback")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (bodyFile, keysFile) = (folder.appendingPathComponent("body.json"), folder.appendingPathComponent("keys.json"))
        try Data(body.utf8).write(to: bodyFile)
        try signer.writeKeys(to: keysFile)
        let result = try TestEnvironment.run(
            "python3", ["Tests/Google/check_callback.py", bodyFile.path, keysFile.path, issuer], in: TestEnvironment.repositoryRoot)
        return result.status == 0 ? result.stdout : nil
    }

    @Test func aCallbackSignedAsGoogleDoesVerifiesHereAndInPython() throws {
        let signer = GoogleCallbackSigner(intermediateExpiration: Self.now.addingTimeInterval(3600))
        let body = try signer.body(Self.message("del"), recipientID: Self.issuer)
        let callback = try GoogleCallbackVerifier(keys: try Self.keys(signer), recipientID: Self.issuer).verify(
            Array(body.utf8), now: Self.now)
        #expect(callback.event == .del && callback.objectID == "\(Self.issuer).pass.example.A-1" && callback.nonce == "nonce-1")
        #expect(callback.classID == "\(Self.issuer).Loyalty")
        let signed = try #require(try Self.python(body, signer))
        #expect(signed.contains("\"eventType\":\"del\""))
        #expect(try Self.python(body, signer, issuer: "3388000000099999999") == nil, "Python checks the recipient too")
        #expect(try Self.python(try signer.body(Self.message(), recipientID: Self.issuer, tamper: true), signer) == nil)
    }

    @Test func anExpiredRootKeyOrAForeignRootIsRefused() throws {
        let signer = GoogleCallbackSigner(intermediateExpiration: Self.now.addingTimeInterval(3600))
        let body = Array(try signer.body(Self.message(), recipientID: Self.issuer).utf8)
        let expired = GoogleCallbackVerifier(keys: try Self.keys(signer, rootExpiration: Self.now), recipientID: Self.issuer)
        #expect(throws: GoogleWalletError.self) { try expired.verify(body, now: Self.now) }
        let foreign = GoogleCallbackSigner(intermediateExpiration: Self.now.addingTimeInterval(3600))
        let other = GoogleCallbackVerifier(keys: try Self.keys(foreign), recipientID: Self.issuer)
        do {
            _ = try other.verify(body, now: Self.now)
            Issue.record("a callback signed under another root verified")
        } catch {
            #expect(error.code == .unverifiedCallback && error.message.contains("root key"), "\(error)")
        }
    }

    @Test func aKeysFileWithoutAUsableKeySaysWhichEntry() throws {
        let bad = #"{"keys":[{"keyValue":"bm90IGEga2V5","protocolVersion":"ECv2SigningOnly","keyExpiration":"1"}]}"#
        do {
            _ = try GoogleSigningKeys(json: Array(bad.utf8), source: "keys.json")
            Issue.record("a key that is not a key was read")
        } catch {
            #expect(error.code == .invalidCallbackKeys && error.message.contains("keys.json: keys[0].keyValue"), "\(error)")
        }
        let none = #"{"keys":[{"keyValue":"x","protocolVersion":"ECv2"}]}"#
        #expect(throws: GoogleWalletError.self) { try GoogleSigningKeys(json: Array(none.utf8), source: "keys.json") }
    }
}
