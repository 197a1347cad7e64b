import Foundation
import Passmint
import PassmintTestSupport
import Testing

@testable import PassmintGoogle

/// Each style's own slots, filled from the sample templates.
@Suite struct GoogleMappingStyleTests {
    let issuer = GoogleHarness.issuerID

    @Test func loyaltyCardsCarryPointsMemberAndSharing() throws {
        let mapped = try SampleTemplates.mapped("Loyalty")
        #expect(mapped.classID == "\(issuer).Loyalty")
        #expect(mapped.objectID == "\(issuer).Loyalty.MLC-4711-0815")
        #expect(mapped.classBody["programName"] == "Mint Leaf Coffee" && mapped.classBody["issuerName"] == "Mint Leaf Coffee")
        #expect(mapped.classBody["hexBackgroundColor"] == "#3a2218")
        #expect(mapped.classBody["programLogo"]?["sourceUri"]?["uri"] == "https://passes.example.com/google/images/logo@3x.png")
        #expect(mapped.classBody["heroImage"]?["sourceUri"]?["uri"] == "https://passes.example.com/google/images/strip@3x.png")
        #expect(mapped.objectBody["loyaltyPoints"] == ["balance": ["int": 1250], "label": "POINTS"])
        #expect(mapped.objectBody["accountName"] == "Zoë Müller" && mapped.objectBody["accountId"] == "4711-0815-2342")
        #expect(mapped.objectBody["barcode"] == ["type": "QR_CODE", "value": "MLC-4711-0815-2342", "alternateText": "4711-0815-2342"])
        #expect(mapped.classBody["multipleDevicesAndHoldersAllowedStatus"] == "ONE_USER_ALL_DEVICES")
        #expect(mapped.objectBody["passConstraints"] == ["screenshotEligibility": "INELIGIBLE"])
        #expect(mapped.objectBody["locations"]?.arrayValue?.count == 2)
        #expect(mapped.objectBody["state"] == "ACTIVE")
        let modules = mapped.objectBody["textModulesData"]?.arrayValue ?? []
        #expect(modules.contains(["id": "tier", "body": "Gold", "header": "TIER"]))
        #expect(modules.contains { $0["id"] == "terms" })
        #expect(mapped.findings.contains { $0.path == "nfc" } && mapped.findings.contains { $0.path == "foregroundColor" })
        #expect(mapped.findings.contains { $0.message.hasPrefix("changeMessage on tier, points") })
    }

    @Test func giftCardsCarryTheBalanceInMicrosAndTheCardNumber() throws {
        let mapped = try SampleTemplates.mapped("StoreCard")
        #expect(mapped.style == .giftCard)
        #expect(mapped.objectBody["balance"] == ["micros": "42500000", "currencyCode": "EUR"])
        #expect(mapped.objectBody["cardNumber"] == "6036 7781 4410 2290")
        #expect(mapped.objectBody["barcode"]?["type"] == "PDF_417")
        #expect(mapped.objectBody["validTimeInterval"] == ["end": ["date": "2029-12-31T23:59:00+01:00"]])
    }

    @Test func eventTicketsCarrySeatRowSectionGateAndHolder() throws {
        let mapped = try SampleTemplates.mapped("EventTicket")
        func localized(_ text: String) -> JSONValue { ["defaultValue": ["language": "en", "value": .string(text)]] }
        #expect(
            mapped.objectBody["seatInfo"] == [
                "seat": localized("14"), "row": localized("F"), "section": localized("Parterre"), "gate": localized("B"),
            ])
        #expect(mapped.objectBody["ticketHolderName"] == "Sören Øberg")
        #expect(mapped.objectBody["reservationInfo"] == ["confirmationCode": "ORD-58213"])
        #expect(mapped.objectBody["groupingInfo"] == ["groupingId": "ORD-58213"])
        #expect(mapped.classBody["eventName"] == localized("Spearmint Hall"))
        #expect(mapped.classBody["logo"] != nil && mapped.objectBody["imageModulesData"] != nil, "logo and thumbnail")
        #expect(
            mapped.objectBody["validTimeInterval"] == [
                "start": ["date": "2026-12-24T18:30:00+01:00"], "end": ["date": "2026-12-24T22:30:00+01:00"],
            ])
        let modules = mapped.objectBody["textModulesData"]?.arrayValue ?? []
        #expect(modules.contains(["id": "price", "body": "EUR 59.9", "header": "PRICE"]))
    }

    @Test func translatedTemplatesCarryEveryLanguage() throws {
        let mapped = try SampleTemplates.mapped("Festival")
        #expect(mapped.classBody["issuerName"] == "Mint Festival 2026")
        let name = mapped.classBody["localizedIssuerName"]
        #expect(name?["defaultValue"] == ["language": "en", "value": "Mint Festival 2026"])
        #expect(name?["translatedValues"]?.arrayValue?.contains(["language": "fr", "value": "Festival de la Menthe 2026"]) == true)
        #expect(
            mapped.objectBody["ticketType"]?["translatedValues"]?.arrayValue?.contains(["language": "fr", "value": "Pass week-end"]) == true
        )
        #expect(mapped.classBody["logo"]?["sourceUri"]?["uri"] == "https://passes.example.com/google/images/en.lproj/logo@3x.png")
    }

    @Test func flightsAreOneClassPerFlight() throws {
        let mapped = try SampleTemplates.mapped("BoardingPass")
        #expect(mapped.classID == "\(issuer).BoardingPass.MT401.2026-12-24")
        #expect(mapped.classBody["flightHeader"]?["carrier"]?["carrierIataCode"] == "MT")
        #expect(mapped.classBody["flightHeader"]?["flightNumber"] == "401")
        #expect(mapped.classBody["origin"] == ["airportIataCode": "MUC", "gate": "G24"])
        #expect(mapped.classBody["destination"] == ["airportIataCode": "LIS"])
        #expect(mapped.classBody["localScheduledDepartureDateTime"] == "2026-12-24T09:45:00")
        #expect(mapped.classBody["localBoardingDateTime"] == "2026-12-24T09:10:00")
        #expect(mapped.objectBody["passengerName"] == "Zoë Müller")
        #expect(mapped.objectBody["boardingAndSeatingInfo"] == ["seatNumber": "12C", "boardingGroup": "2", "seatClass": "Economy"])
        #expect(mapped.objectBody["reservationInfo"] == ["confirmationCode": "K7XQ2M"])
        #expect(mapped.objectBody["barcode"]?["type"] == "AZTEC")
        let semantic = try SampleTemplates.mapped("SemanticBoardingPass")
        #expect(semantic.classID == "\(issuer).SemanticBoardingPass.MT402.2026-12-27")
        #expect(semantic.objectBody["passengerName"] == "Zoë Müller")
    }

    @Test func otherTransitIsATransitPassWithItsLeg() throws {
        var (pass, files) = try SampleTemplates.rendered("BoardingPass")
        var boarding = pass["boardingPass"]?.objectValue ?? JSONObject()
        boarding["transitType"] = "PKTransitTypeTrain"
        pass["boardingPass"] = .object(boarding)
        files.removeAll { $0.path.hasPrefix("logo") }
        let mapped = try GoogleMapping(options: SampleTemplates.options).map(pass: pass, files: files, templateName: "Train")
        #expect(mapped.style == .transit && mapped.classBody["transitType"] == "RAIL")
        #expect(mapped.objectBody["ticketLeg"]?["originName"]?["defaultValue"]?["value"] == "Munich")
        #expect(mapped.objectBody["ticketLeg"]?["departureDateTime"] == "2026-12-24T09:45:00")
        #expect(mapped.objectBody["passengerNames"] == "Zoë Müller")
        try expectAccepted(mapped)
    }

    @Test func couponsAreOffersAndVoidedPassesAreInactive() throws {
        var (pass, files) = try SampleTemplates.rendered("Coupon")
        pass["voided"] = true
        let mapped = try GoogleMapping(options: SampleTemplates.options).map(pass: pass, files: files, templateName: "Coupon")
        #expect(mapped.style == .offer && mapped.objectBody["state"] == "INACTIVE")
        #expect(mapped.classBody["title"] == "Mint & Crumb" && mapped.classBody["provider"] == "Mint & Crumb Bakery")
        #expect(mapped.classBody["redemptionChannel"] == "BOTH")
        let modules = mapped.objectBody["textModulesData"]?.arrayValue ?? []
        #expect(modules.contains(["id": "offer", "body": "20 %", "header": "OFF ANY PASTRY"]))
    }

    @Test func genericPassesTakeTheirHeaderFromThePrimaryField() throws {
        let mapped = try SampleTemplates.mapped("Generic")
        #expect(mapped.objectBody["header"]?["defaultValue"]?["value"] == "Ana Sofía Peña")
        #expect(mapped.objectBody["subheader"]?["defaultValue"]?["value"] == "MEMBER")
        #expect(mapped.objectBody["hexBackgroundColor"] != nil && mapped.classBody["hexBackgroundColor"] == nil)
        #expect(mapped.objectBody["logo"] != nil)
        #expect(mapped.findings.contains { $0.path == "locations" }, "generic passes have no locations")
    }

    /// The stand-in accepts the mapped class and object.
    private func expectAccepted(_ mapped: GoogleMapping.Mapped) throws {
        let document = try DiscoveryDocument()
        #expect(document.problem(in: .object(mapped.classBody), schema: "TransitClass") == nil)
        #expect(document.problem(in: .object(mapped.objectBody), schema: "TransitObject") == nil)
    }
}
