import Foundation
import Passmint
import PassmintTestSupport
import Testing

@testable import PassmintGoogle

/// Key files, ids and save links.
@Suite struct GoogleIdentityTests {
    @Test func aKeyFileThatIsNotAServiceAccountKeySaysWhatToDownload() throws {
        func message(_ text: String) -> String? {
            do {
                _ = try ServiceAccountKey(json: Array(text.utf8), source: "key.json")
                return nil
            } catch { return error.message }
        }
        #expect(message("not json")?.contains("key.json is not JSON") == true)
        #expect(message(#"{"type": "authorized_user"}"#)?.contains("\"type\" is \"authorized_user\", not \"service_account\"") == true)
        #expect(message(#"{"type": "service_account", "client_email": "a@b"}"#)?.contains("no \"private_key\"") == true)
        let broken = #"{"type": "service_account", "client_email": "a@b", "private_key": "-----BEGIN PRIVATE KEY-----\nAAAA\n"}"#
        #expect(message(broken)?.contains("key.json \"private_key\" is not a PEM private key") == true)
        #expect(throws: GoogleWalletError.self) { _ = try ServiceAccountKey(contentsOf: "/nonexistent/key.json") }
    }

    @Test func idsKeepOnlyTheCharactersGoogleAllows() throws {
        #expect(try GoogleWalletIdentifier.make(issuerID: "3388", suffix: "pass.com.example/ticket 7") == "3388.pass.com.example_ticket_7")
        #expect(try GoogleWalletIdentifier.make(issuerID: "3388", suffix: "Café-1") == "3388.Caf_-1")
        #expect(try GoogleWalletIdentifier.make(issuerID: "3388", suffix: "€ 😀x_y") == "3388.___x_y", "one _ a character")
        #expect(GoogleMappingContext.moduleID("seat.row-2 é") == "seat_row_2__", "module ids keep letters, digits and _")
        #expect(throws: GoogleWalletError.self) { try GoogleWalletIdentifier.make(issuerID: "33a8", suffix: "x") }
        #expect(throws: GoogleWalletError.self) { try GoogleWalletIdentifier.make(issuerID: "3388", suffix: "") }
        #expect(GoogleWalletIdentifier.isValid("3388.a-b_c.d", issuerID: "3388"))
        #expect(!GoogleWalletIdentifier.isValid("3388.a b", issuerID: "3388"))
        #expect(!GoogleWalletIdentifier.isValid("4488.ab", issuerID: "3388"))
    }

    @Test func aSaveLinkIsASignedJWTReferencingTheObject() throws {
        let folder = TestEnvironment.temporaryFolder("google-link")
        defer { try? FileManager.default.removeItem(at: folder) }
        let account = try TestServiceAccount(folder: folder)
        let key = try ServiceAccountKey(
            json: JSONWriter.data(account.keyFileJSON(tokenURI: "https://oauth2.googleapis.com/token")), source: "k")
        let links = GoogleSaveLink(key: key, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        let link = try links.link(objectID: "3388.pass.x.s1", style: .eventTicket, origins: ["https://passes.example.com"])
        #expect(link.hasPrefix("https://pay.google.com/gp/v/save/"))
        let parts = link.dropFirst(GoogleSaveLink.base.count).split(separator: ".")
        let claims = try JSONParser.value(Base64URL.decode(parts[1]) ?? [])
        #expect(claims["aud"] == "google" && claims["typ"] == "savetowallet" && claims["iss"] == .string(account.clientEmail))
        #expect(claims["payload"]?["eventTicketObjects"] == [["id": "3388.pass.x.s1"]])
        #expect(claims["origins"] == ["https://passes.example.com"])
        let verifier = try GoogleAssertionVerifier(account: account)
        #expect(verifier.verify(signature: Base64URL.decode(parts[2]) ?? [], message: Array((parts[0] + "." + parts[1]).utf8)))
        let long = String(repeating: "x", count: 1500)
        #expect(throws: GoogleWalletError.self) { try links.link(objectID: "3388." + long, style: .generic) }
    }
}
