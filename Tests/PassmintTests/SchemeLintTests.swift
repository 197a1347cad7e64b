import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// Lint rules for poster event tickets, semantic boarding passes, semantic tags and the iOS 27 keys: a clean pass of
/// each kind that breaks no rule, and one change per rule that does.
@Suite(.computeThreads) struct SchemeLintTests {
    static let posterJSON = """
        {
          "formatVersion": 1, "passTypeIdentifier": "pass.com.example.tickets", "teamIdentifier": "ABCDE12345",
          "serialNumber": "T-1", "organizationName": "Aurora Hall", "description": "Concert ticket",
          "preferredStyleSchemes": ["posterEventTicket", "eventTicket"],
          "eventLogoText": "Aurora Hall", "footerBackgroundColor": "rgb(8, 16, 48)", "parkingInformationURL": "https://example.com/parking",
          "relevantDate": "2026-10-03T18:30:00+02:00",
          "relevantDates": [{"startDate": "2026-10-03T18:30:00+02:00", "endDate": "2026-10-03T22:30:00+02:00"}],
          "upcomingPassInformation": [
            {"type": "event", "identifier": "night-2", "name": "Northern Lights Live, night 2", "isActive": false,
             "dateInformation": {"date": "2026-10-04T19:30:00+02:00", "timeZone": "Europe/Oslo"},
             "semantics": {"venueRoom": "Main Hall"}, "URLs": {"parkingInformationURL": "https://example.com/parking"}}
          ],
          "nfc": {"message": "T-1", "encryptionPublicKey": "\(TestTemplates.p256PublicKey)", "requiresAuthentication": false},
          "semantics": {
            "eventType": "PKEventTypeLivePerformance", "eventName": "Northern Lights Live", "performerNames": ["Solveig"],
            "venueName": "Aurora Hall", "venueRegionName": "Oslo", "venueRoom": "Main Hall",
            "venueLocation": {"latitude": 59.9, "longitude": 10.75},
            "eventStartDate": "2026-10-03T19:30:00.000Z", "eventEndDate": "2026-10-03T22:30:00+02:00",
            "seats": [{"seatRow": "C", "seatNumber": "12"}]
          },
          "eventTicket": {
            "primaryFields": [{"key": "event", "label": "Event", "value": "Northern Lights Live"}],
            "secondaryFields": [{"key": "seat", "label": "Seat", "value": "C 12"}],
            "additionalInfoFields": [{"key": "entry", "label": "Entry", "value": "Hold your iPhone near the reader."}],
            "backFields": [{"key": "entryBack", "label": "Entry", "value": "Hold your iPhone near the reader."}]
          }
        }
        """

    static let boardingJSON = """
        {
          "formatVersion": 1, "passTypeIdentifier": "pass.com.example.air", "teamIdentifier": "ABCDE12345",
          "serialNumber": "B-1", "organizationName": "Mintair", "description": "Boarding pass",
          "preferredStyleSchemes": ["semanticBoardingPass", "boardingPass"],
          "managementURL": "https://example.com/trip",
          "barcodes": [{"format": "PKBarcodeFormatAztec", "message": "B-1", "messageEncoding": "iso-8859-1"}],
          "semantics": {
            "airlineCode": "MT", "flightNumber": 402, "departureAirportCode": "LIS", "departureCityName": "Lisbon",
            "departureLocationTimeZone": "Europe/Lisbon", "destinationAirportCode": "MUC", "destinationCityName": "Munich",
            "destinationLocationTimeZone": "Europe/Berlin", "originalBoardingDate": "2026-12-27T13:05:00+00:00",
            "originalDepartureDate": "2026-12-27T13:40:00+00:00", "originalArrivalDate": "2026-12-27T17:35:00+01:00",
            "passengerName": {"givenName": "Zoë", "familyName": "Müller"},
            "departureLocation": {"latitude": 38.77, "longitude": -9.13}
          },
          "boardingPass": {
            "transitType": "PKTransitTypeAir",
            "primaryFields": [{"key": "from", "label": "Lisbon", "value": "LIS"}, {"key": "to", "label": "Munich", "value": "MUC"}]
          }
        }
        """

    enum Base: Sendable { case poster, boarding }

    static func json(_ base: Base) -> JSONObject {
        try! JSONParser.value(Array((base == .poster ? posterJSON : boardingJSON).utf8)).objectValue!
    }

    static func files(_ base: Base) -> [PassContents.File] {
        switch base {
        case .poster:
            LintTests.images("icon", 38, 38) + LintTests.images("logo", 160, 50) + LintTests.images("background", 180, 220)
                + LintTests.images("artwork", 358, 448) + LintTests.images("primaryLogo", 126, 30)
                + LintTests.images("secondaryLogo", 135, 12)
        case .boarding:
            LintTests.images("icon", 38, 38) + LintTests.images("logo", 160, 50) + LintTests.images("footer", 286, 15)
        }
    }

    static func lint(_ json: JSONObject, _ files: [PassContents.File]) -> [Diagnostic] {
        PassLinter.lint(PassContents(source: "test", passJSON: json, files: files, isTemplate: false))
    }

    @Test(arguments: [Base.poster, Base.boarding])
    func cleanPassesHaveNoFindings(_ base: Base) {
        let found = Self.lint(Self.json(base), Self.files(base))
        // The poster ticket has nfc, so only the NFC-certificate reminder remains.
        #expect(found.map(\.code) == (base == .poster ? ["nfc-certificate"] : []), "\(found.map(\.description).joined(separator: "\n"))")
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var code: String
        var severity: Diagnostic.Severity
        var base: Base = .poster
        var path: String? = nil
        var json: @Sendable (inout JSONValue) -> Void = { _ in }
        var files: @Sendable (inout [PassContents.File]) -> Void = { _ in }
        var testDescription: String { code + (path.map { " at \($0)" } ?? "") + (base == .boarding ? " (boarding pass)" : "") }
    }

    static let cases: [Case] = [
        // preferredStyleSchemes
        Case(
            code: "style-scheme-unknown", severity: .warning, path: "preferredStyleSchemes[2]",
            json: { $0.set("preferredStyleSchemes[2]", "posterTicket") }),
        Case(code: "key-type", severity: .error, path: "preferredStyleSchemes[0]", json: { $0.set("preferredStyleSchemes[0]", 1) }),
        Case(
            code: "style-scheme-mismatch", severity: .error, path: "preferredStyleSchemes[2]",
            json: { $0.set("preferredStyleSchemes[2]", "semanticBoardingPass") }),
        Case(
            code: "style-scheme-mismatch", severity: .error, base: .boarding,
            json: { $0.set("preferredStyleSchemes[2]", "posterEventTicket") }),
        Case(
            code: "style-scheme-order", severity: .warning, json: { $0.set("preferredStyleSchemes", ["eventTicket", "posterEventTicket"]) }),
        Case(code: "style-scheme-fallback-missing", severity: .warning, json: { $0.set("preferredStyleSchemes", ["posterEventTicket"]) }),
        Case(
            code: "style-scheme-fallback-missing", severity: .warning, base: .boarding,
            json: { $0.set("preferredStyleSchemes", ["semanticBoardingPass"]) }),
        Case(
            code: "semantic-boarding-pass-transit", severity: .error, base: .boarding,
            json: { $0.set("boardingPass.transitType", "PKTransitTypeTrain") }),
        // Keys that only the enhanced layouts use
        Case(code: "poster-key-without-scheme", severity: .warning, path: "eventLogoText", json: { $0.set("preferredStyleSchemes", nil) }),
        Case(
            code: "poster-key-without-scheme", severity: .warning, base: .boarding, path: "useAutomaticColors",
            json: { $0.set("useAutomaticColors", true) }),
        Case(
            code: "semantic-boarding-key-without-scheme", severity: .warning, base: .boarding, path: "managementURL",
            json: {
                $0.set("preferredStyleSchemes", nil)
            }),
        Case(
            code: "additional-info-fields-style", severity: .warning, base: .boarding,
            json: {
                $0.set("boardingPass.additionalInfoFields", [["key": "info", "label": "Info", "value": "x"]])
            }),
        Case(
            code: "additional-info-fields-style", severity: .warning, path: "eventTicket.additionalInfoFields",
            json: {
                $0.set("preferredStyleSchemes", ["eventTicket"])
            }),
        Case(
            code: "additional-info-fields-fallback", severity: .warning, path: "eventTicket.additionalInfoFields[0]",
            json: {
                $0.set("eventTicket.backFields", nil)
            }),
        Case(
            code: "additional-info-fields-fallback", severity: .warning, path: "eventTicket.additionalInfoFields[1]",
            json: {
                $0.set("eventTicket.additionalInfoFields[1]", ["key": "bar", "label": "Bar", "value": "Opens at 18:00"])
            }),
        // upcomingPassInformation belongs to poster event tickets
        Case(
            code: "poster-key-without-scheme", severity: .warning, base: .boarding, path: "upcomingPassInformation",
            json: {
                $0.set("upcomingPassInformation", [["type": "event", "identifier": "b", "name": "Return flight"]])
            }),
        Case(
            code: "key-type", severity: .error, path: "upcomingPassInformation[0]",
            json: { $0.set("upcomingPassInformation[0]", "night-2") }),
        Case(
            code: "upcoming-pass-entry", severity: .error, path: "upcomingPassInformation[0].name",
            json: {
                $0.set("upcomingPassInformation[0].name", nil)
            }),
        Case(
            code: "upcoming-pass-entry", severity: .error, path: "upcomingPassInformation[0].identifier",
            json: {
                $0.set("upcomingPassInformation[0].identifier", 2)
            }),
        Case(
            code: "upcoming-pass-entry", severity: .error, path: "upcomingPassInformation[0].type",
            json: {
                $0.set("upcomingPassInformation[0].type", "flight")
            }),
        Case(
            code: "upcoming-pass-entry", severity: .error, path: "upcomingPassInformation[0].isActive",
            json: {
                $0.set("upcomingPassInformation[0].isActive", "yes")
            }),
        Case(
            code: "upcoming-pass-entry", severity: .error, path: "upcomingPassInformation[0].dateInformation",
            json: {
                $0.set("upcomingPassInformation[0].dateInformation", "2026-10-04")
            }),
        Case(
            code: "date-format", severity: .error, path: "upcomingPassInformation[0].dateInformation.date",
            json: {
                $0.set("upcomingPassInformation[0].dateInformation.date", "2026-10-04 19:30")
            }),
        Case(
            code: "upcoming-pass-identifier-duplicate", severity: .error, path: "upcomingPassInformation[1].identifier",
            json: {
                $0.set("upcomingPassInformation[1]", ["type": "event", "identifier": "night-2", "name": "Night 3"])
            }),
        // Poster requirements
        Case(
            code: "poster-semantics-missing", severity: .error, path: "semantics.performerNames",
            json: { $0.set("semantics.performerNames", []) }),
        Case(
            code: "poster-semantics-missing", severity: .error, path: "semantics.homeTeamAbbreviation",
            json: {
                $0.set("semantics.eventType", "PKEventTypeSports")
                $0.set("semantics.awayTeamAbbreviation", "AWY")
            }),
        Case(code: "poster-start-date-missing", severity: .warning, json: { $0.set("semantics.eventStartDate", nil) }),
        Case(code: "poster-nfc-missing", severity: .warning, json: { $0.set("nfc", nil) }),
        Case(code: "poster-artwork-missing", severity: .error, files: { $0.removeAll { $0.path.hasPrefix("artwork") } }),
        Case(code: "poster-logo-missing", severity: .warning, files: { $0.removeAll { $0.path.hasPrefix("primaryLogo") } }),
        Case(code: "image-unused", severity: .warning, path: "artwork.png", json: { $0.set("preferredStyleSchemes", ["eventTicket"]) }),
        // Semantic tag values
        Case(
            code: "semantics-type", severity: .error, path: "semantics.eventStartDate",
            json: { $0.set("semantics.eventStartDate", "2026-10-03 19:30") }),
        Case(
            code: "semantics-type", severity: .error, path: "semantics.venueLocation",
            json: { $0.set("semantics.venueLocation", ["latitude": "59.9"]) }),
        Case(
            code: "semantics-type", severity: .error, path: "semantics.performerNames",
            json: { $0.set("semantics.performerNames", "Solveig") }),
        Case(
            code: "semantics-type", severity: .error, path: "eventTicket.primaryFields[0].semantics.eventName",
            json: {
                $0.set("eventTicket.primaryFields[0].semantics", ["eventName": 5])
            }),
        Case(
            code: "semantics-type", severity: .error, base: .boarding, path: "semantics.flightNumber",
            json: { $0.set("semantics.flightNumber", "402") }),
        Case(
            code: "semantics-type", severity: .error, base: .boarding, path: "semantics.passengerName",
            json: { $0.set("semantics.passengerName", "Zoë Müller") }),
        Case(code: "semantics-enum", severity: .warning, json: { $0.set("semantics.eventType", "PKEventTypeOpera") }),
        Case(
            code: "semantics-format", severity: .warning, base: .boarding, path: "semantics.departureAirportCode",
            json: {
                $0.set("semantics.departureAirportCode", "Lisbon")
            }),
        Case(code: "semantics-date-order", severity: .warning, json: { $0.set("semantics.eventEndDate", "2026-10-02T22:30:00+02:00") }),
        // relevantDates
        Case(code: "relevant-date-fallback-missing", severity: .warning, path: "relevantDate", json: { $0.set("relevantDate", nil) }),
        Case(
            code: "relevant-date-order", severity: .error, path: "relevantDates[0].endDate",
            json: {
                $0.set("relevantDates[0].endDate", "2026-10-03T17:00:00+02:00")
            }),
        // iOS 27
        Case(
            code: "featured-actions-max", severity: .error,
            json: { $0.set("featuredActions", [["kind": "a"], ["kind": "b"], ["kind": "c"]]) }),
        Case(code: "key-type", severity: .error, path: "featuredActions[0]", json: { $0.set("featuredActions", ["open"]) }),
        Case(
            code: "poster-generic-fallback-missing", severity: .error, base: .boarding,
            json: {
                $0.set("posterGeneric", ["primaryFields": []])
                $0.set("boardingPass", nil)
            }),
        Case(
            code: "logo-symbol-without-logo", severity: .warning, base: .boarding, json: { $0.set("logoSymbolName", "airplane") },
            files: {
                $0.removeAll { $0.path.hasPrefix("logo") }
            }),
        Case(code: "key-type", severity: .error, base: .boarding, path: "logoSymbolName", json: { $0.set("logoSymbolName", 7) }),
        Case(
            code: "barcode-fallback-missing", severity: .error, base: .boarding,
            json: { $0.set("barcodes[0].format", "PKBarcodeFormatCode39") }),
    ]

    @Test(arguments: cases)
    func ruleIsCaught(_ rule: Case) {
        var json = JSONValue.object(Self.json(rule.base))
        rule.json(&json)
        var files = Self.files(rule.base)
        rule.files(&files)
        let found = Self.lint(json.objectValue!, files)
        let matching = found.filter { $0.code == rule.code && (rule.path == nil || $0.path == rule.path || $0.file == rule.path) }
        #expect(!matching.isEmpty, "expected \(rule.code); found:\n\(found.map(\.description).joined(separator: "\n"))")
        #expect(matching.allSatisfy { $0.severity == rule.severity })
        #expect(matching.allSatisfy { !$0.message.isEmpty && !$0.fix.isEmpty })
        // The clean pass of the same kind does not trigger the rule.
        #expect(!Self.lint(Self.json(rule.base), Self.files(rule.base)).contains { $0.code == rule.code })
    }
}
