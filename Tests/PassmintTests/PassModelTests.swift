import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

@Suite(.computeThreads) struct PassModelTests {
    @Test func decodesEveryDocumentedKeyAndKeepsUnknownOnes() throws {
        let json = try JSONParser.value(
            Array(
                #"""
                {"formatVersion": 1, "passTypeIdentifier": "pass.x", "serialNumber": "1", "teamIdentifier": "T", "organizationName": "O",
                 "description": "D", "sharingProhibited": true, "voided": false, "groupingIdentifier": "g",
                 "nfc": {"message": "m", "encryptionPublicKey": "k", "requiresAuthentication": true},
                 "relevantDates": [{"startDate": "2026-01-01T10:00:00Z", "endDate": "2026-01-01T12:00:00Z"}],
                 "locations": [{"latitude": 1.5, "longitude": 2}], "beacons": [{"proximityUUID": "u", "major": 1}],
                 "barcodes": [{"format": "PKBarcodeFormatEAN13", "message": "1", "messageEncoding": "iso-8859-1"}],
                 "semantics": {"venueName": "Hall"}, "preferredStyleSchemes": ["posterEventTicket", "eventTicket"],
                 "parkingInformationURL": "https://example.com/p", "userInfo": {"any": [1]}, "brandNewKey": 7,
                 "eventTicket": {"primaryFields": [{"key": "a", "value": 3, "numberStyle": "PKNumberStyleDecimal", "extra": 1}],
                                 "auxiliaryFields": [{"key": "b", "value": "2026-01-01T10:00:00+01:00", "dateStyle": "PKDateStyleShort", "row": 1}]}}
                """#.utf8)
        ).objectValue!
        let pass = try Pass(json: json)
        #expect(pass.style == .eventTicket)
        #expect(pass.sharingProhibited == true)
        #expect(pass.nfc?.requiresAuthentication == true)
        #expect(pass.barcodes?.first?.format == .ean13)
        #expect(pass.barcodes?.first?.format.isClassic == false)
        #expect(pass.eventLinks.parkingInformationURL == "https://example.com/p")
        #expect(pass.fields.primaryFields?.first?.value == .number(3))
        #expect(pass.fields.primaryFields?.first?.additionalProperties["extra"] == 1)
        #expect(pass.fields.auxiliaryFields?.first?.row == 1)
        #expect(pass.additionalProperties["brandNewKey"] == 7)

        let again = try pass.jsonObject()
        #expect(again["brandNewKey"] == 7)
        #expect(again["eventTicket"]?["primaryFields"]?.arrayValue?.first?["extra"] == 1)
        #expect(try Pass(json: again) == pass)
    }

    @Test func decodingErrorsNameTheKeyPath() {
        let json: JSONObject = [
            "formatVersion": 1, "passTypeIdentifier": "pass.x", "serialNumber": "1", "teamIdentifier": "T", "organizationName": "O",
            "description": "D", "generic": ["primaryFields": [["key": "a"]]],
        ]
        do {
            _ = try Pass(json: json)
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("generic.primaryFields[0].value"))
        }
    }

    /// Every iOS 18–27 key in its typed form, in an order no encoder would choose, with unknown keys at every level.
    static let newerKeysJSON = #"""
        {"serialNumber": "P-1", "formatVersion": 1, "description": "Poster", "teamIdentifier": "T", "passTypeIdentifier": "pass.x",
         "organizationName": "O", "zFutureKey": {"b": 1, "a": [2.50, "x"]},
         "preferredStyleSchemes": ["posterEventTicket", "eventTicket"],
         "transferURL": "https://example.com/transfer", "parkingInformationURL": "https://example.com/parking",
         "contactVenuePhoneNumber": "+47 22 00 00 00", "managementURL": "https://example.com/trip",
         "upcomingPassInformation": [
           {"name": "Night 2", "type": "event", "identifier": "night-2", "isActive": true,
            "dateInformation": {"timeZone": "Europe/Oslo", "date": "2026-10-04T19:30:00+02:00", "isAllDay": false, "futureFlag": 1},
            "URLs": {"sellURL": "https://example.com/sell", "futureURL": "https://example.com/f"},
            "semantics": {"venueRoom": "Main Hall", "eventName": "Night 2"},
            "backFields": [{"value": "Door B", "key": "door", "label": "Door"}],
            "images": {"venueMap": {"reuseExisting": true}}, "entryExtra": "kept"}
         ],
         "featuredActions": [{"type": "viewSchedule", "url": "https://example.com/s", "identifier": "schedule", "badge": 3},
                             {"identifier": "hall", "type": "place", "placeIdentifier": "I123"}],
         "logoSymbolName": "music.note",
         "posterGeneric": {"primaryFields": [{"key": "pg", "value": "Poster"}], "posterExtra": true},
         "eventTicket": {"additionalInfoFields": [{"key": "info", "value": 1.50, "numberStyle": "PKNumberStyleDecimal"}],
                         "primaryFields": [{"label": "Event", "key": "event", "value": "Concert"}]}}
        """#

    @Test func newerKeysAreTypedAndRoundTripExactly() throws {
        let source = try JSONParser.value(Array(Self.newerKeysJSON.utf8))
        let pass = try Pass(json: try #require(source.objectValue))
        #expect(pass.eventLinks.parkingInformationURL == "https://example.com/parking")
        #expect(pass.eventLinks.transferURL == "https://example.com/transfer")
        #expect(pass.eventLinks.contactVenuePhoneNumber == "+47 22 00 00 00")
        #expect(pass.boardingPassLinks.managementURL == "https://example.com/trip")
        #expect(pass.posterGeneric?.primaryFields?.first?.key == "pg")
        #expect(pass.posterGeneric?.additionalProperties["posterExtra"] == true)
        #expect(pass.featuredActions?.map(\.type) == [.viewSchedule, .place])
        #expect(pass.featuredActions?.last?.placeIdentifier == "I123")
        #expect(pass.featuredActions?.first?.additionalProperties["badge"] == 3)
        let entry = try #require(pass.upcomingPassInformation?.first)
        #expect(entry.type == "event" && entry.identifier == "night-2" && entry.name == "Night 2" && entry.isActive == true)
        #expect(entry.dateInformation?.date == "2026-10-04T19:30:00+02:00")
        #expect(entry.dateInformation?.timeZone == "Europe/Oslo")
        #expect(entry.dateInformation?.additionalProperties["futureFlag"] == 1)
        #expect(entry.urls?.sellURL == "https://example.com/sell")
        #expect(entry.additionalURLs["futureURL"] == "https://example.com/f")
        #expect(entry.semantics?.json["venueRoom"] == "Main Hall")
        #expect(entry.backFields?.first?.key == "door")
        #expect(entry.additionalProperties["entryExtra"] == "kept")
        #expect(pass.additionalProperties["zFutureKey"] != nil)
        #expect(pass.additionalProperties.keys == ["zFutureKey"], "every other key is typed")

        // Written again: the same members, in the same order, with the same number literals.
        let written = try pass.jsonObject()
        #expect(
            JSONWriter.data(.object(written)) == JSONWriter.data(source),
            "\(String(decoding: JSONWriter.data(.object(written)), as: UTF8.self))")
        #expect(try Pass(json: written) == pass)

        // A change made in code is written, the rest keeps its place.
        var changed = pass
        changed.eventLinks.parkingInformationURL = nil
        changed.eventLinks.sellURL = "https://example.com/sell-ticket"
        changed.upcomingPassInformation?[0].urls?.sellURL = nil
        let rewritten = try changed.jsonObject()
        #expect(rewritten["parkingInformationURL"] == nil)
        #expect(rewritten["sellURL"] == "https://example.com/sell-ticket")
        #expect(
            rewritten.keys.prefix(7) == [
                "serialNumber", "formatVersion", "description", "teamIdentifier", "passTypeIdentifier", "organizationName", "zFutureKey",
            ])
        #expect(rewritten["upcomingPassInformation"]?.arrayValue?.first?["URLs"] == ["futureURL": "https://example.com/f"])
    }

    @Test func typedUpcomingEventsAndActionsWriteWhatLintAccepts() throws {
        var pass = Pass(
            passTypeIdentifier: "pass.com.example.tickets", serialNumber: "T-1", teamIdentifier: "ABCDE12345",
            organizationName: "Aurora Hall", description: "Concert ticket", style: .eventTicket,
            fields: PassFields(primaryFields: [PassField(key: "event", value: .string("Concert"))]))
        pass.preferredStyleSchemes = [Pass.StyleScheme.posterEventTicket, .eventTicket].map(\.rawValue)
        var night2 = UpcomingPassEntry(identifier: "night-2", name: "Concert, night 2")
        night2.dateInformation = .init(date: "2026-10-04T19:30:00+02:00", timeZone: "Europe/Oslo")
        night2.urls = EventLinks()
        night2.urls?.parkingInformationURL = "https://example.com/parking"
        pass.upcomingPassInformation = [night2]
        pass.featuredActions = [FeaturedAction(identifier: "schedule", type: .viewSchedule, url: "https://example.com/schedule")]
        pass.eventLinks.bagPolicyURL = "https://example.com/bags"
        let json = try pass.jsonObject()
        #expect(
            json["upcomingPassInformation"] == [
                [
                    "URLs": ["parkingInformationURL": "https://example.com/parking"],
                    "dateInformation": ["date": "2026-10-04T19:30:00+02:00", "timeZone": "Europe/Oslo"],
                    "identifier": "night-2", "name": "Concert, night 2", "type": "event",
                ]
            ])
        #expect(json["featuredActions"] == [["identifier": "schedule", "type": "viewSchedule", "url": "https://example.com/schedule"]])
        #expect(json["bagPolicyURL"] == "https://example.com/bags")
        let codes = PassLinter.lintJSON(json).map(\.code)
        #expect(!codes.contains { $0.hasPrefix("upcoming-pass") || $0 == "poster-key-without-scheme" || $0 == "key-type" }, "\(codes)")
    }

    /// Every template's rendered `pass.json` goes through the typed model and comes back byte for byte.
    @Test(arguments: [
        "BoardingPass", "Coupon", "EventTicket", "Festival", "Generic", "Loyalty", "PosterEventTicket", "Rewards",
        "SemanticBoardingPass", "StoreCard",
    ])
    func templatePassesRoundTripThroughTheModel(_ name: String) throws {
        let root = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates")
        let template = try PassTemplate(folder: root.appendingPathComponent("\(name).pass").path)
        let data = try JSONParser.value(try FileIO.read(root.appendingPathComponent("\(name).json").path, what: "data")).objectValue!
        let built = try PassBuilder(identity: TestTemplates.identity()).sign(PassInput(template: template, data: data))
        let pass = try Pass(json: try #require(try JSONParser.value(built.passJSON).objectValue))
        #expect(JSONWriter.data(.object(try pass.jsonObject())) == built.passJSON)
    }
}
