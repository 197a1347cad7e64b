import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

@Suite(.computeThreads) struct SemanticTagsTests {
    @Test func typedPropertiesWriteTheJSONWalletReads() {
        var tags = SemanticTags()
        tags.eventType = .livePerformance
        tags.eventName = "Northern Lights Live"
        tags.venueName = "Aurora Hall"
        tags.venueLocation = .init(latitude: 59.91, longitude: 10.75)
        tags.performerNames = ["Aurora Quartet", "Mira"]
        tags.eventStartDate = Date(timeIntervalSince1970: 1_790_000_000)
        tags.seats = [.init(section: "A", row: "3", number: "12")]
        tags.totalPrice = .init(amount: "49.90", currencyCode: "EUR")
        #expect(tags.json["eventType"] == "PKEventTypeLivePerformance")
        #expect(tags.json["venueLocation"] == ["latitude": 59.91, "longitude": 10.75])
        #expect(tags.json["performerNames"] == ["Aurora Quartet", "Mira"])
        #expect(tags.json["eventStartDate"] == "2026-09-21T14:13:20Z")
        #expect(tags.json["seats"] == [["seatSection": "A", "seatRow": "3", "seatNumber": "12"]])
        #expect(tags.eventStartDate == Date(timeIntervalSince1970: 1_790_000_000))
        #expect(tags.missingPosterEventTicketTags == ["venueRegionName", "venueRoom"])
        tags.venueRegionName = "Oslo"
        tags.venueRoom = "Main Hall"
        #expect(tags.missingPosterEventTicketTags.isEmpty)
        tags.eventType = .sports
        #expect(tags.missingPosterEventTicketTags == ["awayTeamAbbreviation", "homeTeamAbbreviation"])
        tags.venueRoom = nil
        #expect(tags.json["venueRoom"] == nil, "nil removes the tag")
    }

    @Test func readsTheSemanticBoardingPassTemplateAndKeepsEveryTag() throws {
        let chain = try TestEnvironment.devChain()
        let identity = try SigningIdentity(
            certificatePath: chain.appendingPathComponent("signer.pem").path,
            keyPath: chain.appendingPathComponent("signer.key").path, passphrase: nil,
            wwdrPath: chain.appendingPathComponent("wwdr.pem").path)
        let root = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates")
        let template = try PassTemplate(folder: root.appendingPathComponent("SemanticBoardingPass.pass").path)
        let data = try JSONParser.value(try FileIO.read(root.appendingPathComponent("SemanticBoardingPass.json").path, what: ""))
            .objectValue!
        let built = try PassBuilder(identity: identity).sign(PassInput(template: template, data: data))
        let json = try JSONParser.value(built.passJSON).objectValue!
        let pass = try Pass(json: json)
        let tags = try #require(pass.semantics)
        #expect(tags.missingSemanticBoardingPassTags.isEmpty)
        #expect(tags.airlineCode != nil && tags.flightNumber != nil)
        #expect(tags.passengerName?.familyName != nil)
        #expect(tags.originalDepartureDate != nil)
        // Every tag survives the typed model (Pass.jsonObject() writes keys sorted, so compare as dictionaries).
        func dictionary(_ value: JSONValue?) throws -> NSDictionary? {
            try value.flatMap { try JSONSerialization.jsonObject(with: Data(JSONWriter.data($0, style: .compact))) as? NSDictionary }
        }
        let written = try dictionary(try pass.jsonObject()["semantics"])
        let original = try dictionary(json["semantics"])
        #expect(written != nil && written == original)

        var stripped = tags
        stripped.json["departureCityName"] = nil
        #expect(stripped.missingSemanticBoardingPassTags == ["departureCityName"])
    }
}
