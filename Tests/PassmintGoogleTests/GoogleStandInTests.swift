import Foundation
import Passmint
import PassmintHTTP
import PassmintTestSupport
import Testing

@testable import PassmintGoogle

/// The Google stand-in is strict where Google is: a forged assertion gets no token, and a body the discovery
/// document does not describe is refused.
@Suite struct GoogleStandInTests {
    @Test func theDiscoveryDocumentRefusesUnknownPropertiesWrongTypesAndEnumValues() throws {
        let document = try DiscoveryDocument()
        #expect(document.collections["loyaltyClass"] == "LoyaltyClass")
        #expect(document.collections["flightObject"] == "FlightObject")
        let good: JSONValue = ["id": "1.a", "programName": "P", "reviewStatus": "UNDER_REVIEW", "textModulesData": [["header": "H"]]]
        #expect(document.problem(in: good, schema: "LoyaltyClass") == nil)
        let unknown = document.problem(in: ["id": "1.a", "programNmae": "P"], schema: "LoyaltyClass")
        #expect(unknown?.contains("Unknown name \"programNmae\" at 'resource'") == true)
        let nested = document.problem(in: ["textModulesData": [["header": "H", "colour": "red"]]], schema: "LoyaltyClass")
        #expect(nested?.contains("at 'resource.textModulesData[0]'") == true)
        #expect(document.problem(in: ["programName": 5], schema: "LoyaltyClass")?.contains("TYPE_STRING") == true)
        #expect(document.problem(in: ["reviewStatus": "MAYBE"], schema: "LoyaltyClass")?.contains("TYPE_ENUM") == true)
        #expect(document.problem(in: ["enableSmartTap": "yes"], schema: "LoyaltyClass")?.contains("TYPE_BOOL") == true)
        #expect(document.problem(in: ["textModulesData": ["header": "H"]], schema: "LoyaltyClass")?.contains("TYPE_LIST") == true)
    }

    @Test func anAssertionSignedWithAnotherKeyGetsNoToken() async throws {
        try await GoogleHarness.with { harness async throws in
            let stranger = try TestServiceAccount(folder: TestEnvironment.temporaryFolder("stranger"))
            // Same e-mail and key id as the trusted account, another private key.
            var json = stranger.keyFileJSON(tokenURI: harness.standIn.tokenURL.absoluteString).objectValue ?? JSONObject()
            json["private_key_id"] = .string(harness.account.privateKeyID)
            let forged = stranger.folder.appendingPathComponent("forged.json")
            try Data(JSONWriter.data(.object(json))).write(to: forged)
            let tokens = GoogleAccessTokensProbe(keyFile: forged, harness: harness)
            let error = await tokens.failure()
            #expect(error?.contains("Invalid JWT Signature") == true, "\(error ?? "no error")")
            #expect(harness.standIn.issuedTokens == 0)
        }
    }

    @Test func anAssertionForAnotherAudienceGetsNoToken() async throws {
        try await GoogleHarness.with { harness async throws in
            // The key file names another token endpoint, so the assertion's aud is not the stand-in's.
            let elsewhere = try harness.account.writeKeyFile(
                tokenURI: harness.standIn.url.appendingPathComponent("token").absoluteString + "?x=1", name: "elsewhere.json")
            let error = await GoogleAccessTokensProbe(keyFile: elsewhere, harness: harness).failure()
            #expect(error?.contains("aud must be") == true, "\(error ?? "no error")")
        }
    }

    @Test func classesAreInsertedOnceReadAndPatched() async throws {
        try await GoogleHarness.with { harness async throws in
            let body = GoogleHarness.loyaltyClass()
            #expect(try await harness.client.request("POST", path: "loyaltyClass", body: body).status == 200)
            #expect(try await harness.client.request("POST", path: "loyaltyClass", body: body).status == 409)
            #expect(try await harness.client.request("GET", path: "loyaltyClass/\(GoogleHarness.issuerID).none", body: nil).status == 404)
            let unknown: JSONObject = ["id": .string("\(GoogleHarness.issuerID).members"), "colour": "red"]
            let refused = try await harness.client.request("PATCH", path: "loyaltyClass/\(GoogleHarness.issuerID).members", body: unknown)
            #expect(refused.status == 400)
            var foreign = GoogleHarness.loyaltyClass()
            foreign["id"] = "1234.members"
            #expect(try await harness.client.request("POST", path: "loyaltyClass", body: foreign).status == 403)
            let orphan = GoogleHarness.loyaltyObject("s1", classSuffix: "missing")
            #expect(try await harness.client.request("POST", path: "loyaltyObject", body: orphan).status == 404)
        }
    }
}
