import Foundation
import PassmintTestSupport
import Testing

@testable import Passmint

/// Semantic tags in poster tickets and boarding passes: every required tag, tags in fields, the typed model, the
/// relevant date's fallback and template placeholders.
extension SchemeLintTests {
    /// Removing any required semantic tag is an error that names the tag.
    static let requiredTags: [(Base, String)] =
        JSONRules.posterRequiredTags.map { (.poster, $0) } + JSONRules.posterLivePerformanceTags.map { (.poster, $0) }
        + JSONRules.boardingRequiredTags.map { (.boarding, $0.tag) }

    @Test(arguments: requiredTags)
    func removingARequiredSemanticTagIsANamedError(_ base: Base, _ tag: String) {
        var json = JSONValue.object(Self.json(base))
        json.set("semantics.\(tag)", nil)
        let code = base == .poster ? "poster-semantics-missing" : "boarding-semantics-missing"
        let found = Self.lint(json.objectValue!, Self.files(base)).filter { $0.code == code }
        #expect(found.count == 1, "\(found.map(\.description))")
        #expect(found.first?.severity == .error)
        #expect(found.first?.path == "semantics.\(tag)")
        #expect(found.first?.message.contains(tag) == true)
    }

    @Test func semanticTagsInFieldsAndPassmintTimeZoneSpellingCount() {
        var poster = JSONValue.object(Self.json(.poster))
        poster.set("semantics.venueRoom", nil)
        poster.set("eventTicket.primaryFields[0].semantics", ["venueRoom": "Main Hall"])
        #expect(!Self.lint(poster.objectValue!, Self.files(.poster)).contains { $0.code == "poster-semantics-missing" })

        var boarding = JSONValue.object(Self.json(.boarding))
        boarding.set("semantics.departureLocationTimeZone", nil)
        boarding.set("semantics.departureAirportTimeZone", "Europe/Lisbon")
        #expect(!Self.lint(boarding.objectValue!, Self.files(.boarding)).contains { $0.code == "boarding-semantics-missing" })
    }

    @Test func typedModelWritesAPosterTicketLintAccepts() throws {
        var pass = Pass(
            passTypeIdentifier: "pass.com.example.tickets", serialNumber: "T-1", teamIdentifier: "ABCDE12345",
            organizationName: "Aurora Hall", description: "Concert ticket", style: .eventTicket,
            fields: PassFields(primaryFields: [PassField(key: "event", value: .string("Northern Lights Live"))]))
        pass.preferredStyleSchemes = [Pass.StyleScheme.posterEventTicket, .eventTicket].map(\.rawValue)
        pass.semantics = [
            "eventType": "PKEventTypeGeneric", "eventName": "Northern Lights Live", "venueName": "Aurora Hall",
            "venueRegionName": "Oslo", "venueRoom": "Main Hall", "eventStartDate": "2026-10-03T19:30:00+02:00",
        ]
        pass.eventLogoText = "Aurora Hall"
        pass.eventLinks.parkingInformationURL = "https://example.com/parking"
        pass.fields.additionalInfoFields = [PassField(key: "entry", value: .string("Door B"))]
        pass.fields.backFields = [PassField(key: "entryBack", value: .string("Door B"))]
        pass.nfc = NFC(message: "T-1", encryptionPublicKey: TestTemplates.p256PublicKey, requiresAuthentication: false)
        let json = try pass.jsonObject()
        #expect(json["preferredStyleSchemes"] == ["posterEventTicket", "eventTicket"])
        #expect(PassLinter.lintJSON(json).map(\.code) == ["nfc-certificate"])
        #expect(Self.lint(json, Self.files(.poster)).map(\.code) == ["nfc-certificate"])
    }

    /// The top-level `relevantDate` older iOS reads stands for the first entry: an interval's startDate, or a single
    /// entry's date.
    @Test func relevantDateFallbackNamesTheDateToCopy() {
        var interval = JSONValue.object(Self.json(.poster))
        interval.set("relevantDate", nil)
        let fromInterval = Self.lint(interval.objectValue!, Self.files(.poster)).filter { $0.code == "relevant-date-fallback-missing" }
        #expect(fromInterval.count == 1)
        #expect(
            fromInterval.first?.fix.contains("\"relevantDate\": \"2026-10-03T18:30:00+02:00\" (the startDate") == true,
            "\(fromInterval.map(\.fix))")

        var single = interval
        single.set("relevantDates", [["date": "2026-10-03T19:00:00+02:00"]])
        let fromDate = Self.lint(single.objectValue!, Self.files(.poster)).filter { $0.code == "relevant-date-fallback-missing" }
        #expect(
            fromDate.first?.fix.contains("\"2026-10-03T19:00:00+02:00\" (the date of relevantDates[0])") == true, "\(fromDate.map(\.fix))")

        single.set("relevantDate", "2026-10-03T19:00:00+02:00")
        #expect(!Self.lint(single.objectValue!, Self.files(.poster)).contains { $0.code == "relevant-date-fallback-missing" })
    }

    @Test func templatePlaceholdersPassSemanticTypeChecks() {
        var json = JSONValue.object(Self.json(.boarding))
        json.set("semantics.flightNumber", "{{flightDigits}}")
        json.set("semantics.departureLocation.latitude", "{{latitude}}")
        json.set("semantics.originalBoardingDate", "{{boardingTime}}")
        let found = PassLinter.lint(PassContents(source: "t", passJSON: json.objectValue!, files: Self.files(.boarding), isTemplate: true))
        #expect(found.isEmpty, "\(found.map(\.description))")
        let template = try? PassTemplate(
            folder: "t", passJSON: json, files: [PassFile(path: "icon.png", bytes: PNGTests.png(width: 38, height: 38))])
        #expect(template?.placeholderKinds["flightDigits"] == .number, "CSV text becomes a number for semantics.flightNumber")
        #expect(template?.placeholderKinds["latitude"] == .number)
    }
}
