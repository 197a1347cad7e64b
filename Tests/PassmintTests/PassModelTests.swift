import Foundation
import Testing
@testable import Passmint

@Suite struct PassModelTests {
    @Test func decodesEveryDocumentedKeyAndKeepsUnknownOnes() throws {
        let json = try JSONParser.value(Array(#"""
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
            """#.utf8)).objectValue!
        let pass = try Pass(json: json)
        #expect(pass.style == .eventTicket)
        #expect(pass.sharingProhibited == true)
        #expect(pass.nfc?.requiresAuthentication == true)
        #expect(pass.barcodes?.first?.format == .ean13)
        #expect(pass.barcodes?.first?.format.isClassic == false)
        #expect(pass.links["parkingInformationURL"] == "https://example.com/p")
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
}
