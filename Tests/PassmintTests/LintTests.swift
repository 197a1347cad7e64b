import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// Every lint rule: a clean pass that does not break it, and a mutation that does.
@Suite(.computeThreads) struct LintTests {
    static func png(_ width: Int, _ height: Int) -> [UInt8] { PNGTests.png(width: width, height: height) }

    static func images(_ name: String, _ width: Int, _ height: Int, folder: String = "") -> [PassContents.File] {
        [1, 2, 3].map { scale in
            PassContents.File(path: folder + name + (scale == 1 ? "" : "@\(scale)x") + ".png", bytes: png(width * scale, height * scale))
        }
    }

    static let cleanJSON = """
        {
          "formatVersion": 1, "passTypeIdentifier": "pass.com.example.tickets", "teamIdentifier": "ABCDE12345",
          "serialNumber": "T-1", "organizationName": "Example Hall", "description": "Concert ticket",
          "foregroundColor": "rgb(255, 255, 255)", "backgroundColor": "rgb(10,20,30)", "labelColor": "rgb(200, 200, 200)",
          "expirationDate": "2027-01-01T00:00:00Z", "relevantDate": "2026-12-24T19:30+01:00",
          "webServiceURL": "https://passes.example.com/wallet", "authenticationToken": "0123456789abcdef0123",
          "barcodes": [{"format": "PKBarcodeFormatQR", "message": "T-1", "messageEncoding": "iso-8859-1"}],
          "locations": [{"latitude": 48.85, "longitude": 2.35}],
          "eventTicket": {
            "headerFields": [{"key": "date", "label": "Date", "value": "2026-12-24T19:30:00+01:00", "dateStyle": "PKDateStyleMedium", "timeStyle": "PKDateStyleShort"}],
            "primaryFields": [{"key": "event", "label": "Event", "value": "Concert"}],
            "secondaryFields": [{"key": "seat", "label": "Seat", "value": "A 12", "textAlignment": "PKTextAlignmentRight", "changeMessage": "Your seat is now %@"}],
            "auxiliaryFields": [{"key": "price", "label": "Price", "value": 45, "currencyCode": "EUR"},
                                {"key": "door", "label": "Door", "value": 3, "numberStyle": "PKNumberStyleDecimal", "row": 1}],
            "backFields": [{"key": "terms", "label": "Terms", "value": "Call +33 1 23 45 67 89", "dataDetectorTypes": ["PKDataDetectorTypePhoneNumber"]}]
          }
        }
        """

    static var cleanFiles: [PassContents.File] {
        images("icon", 38, 38) + images("logo", 160, 50) + images("background", 180, 220) + images("thumbnail", 90, 90)
    }

    static func lint(_ json: JSONObject, _ files: [PassContents.File] = cleanFiles, options: LintOptions = .init()) -> [Diagnostic] {
        PassLinter.lint(PassContents(source: "test", passJSON: json, files: files, isTemplate: false), options: options)
    }

    static var clean: JSONObject { try! JSONParser.value(Array(cleanJSON.utf8)).objectValue! }

    @Test func cleanPassHasNoFindings() {
        let found = Self.lint(Self.clean)
        #expect(found.isEmpty, "\(found.map(\.description).joined(separator: "\n"))")
    }

    /// One rule broken by one change.
    struct Case: CustomTestStringConvertible, Sendable {
        var code: String
        var severity: Diagnostic.Severity
        var path: String? = nil
        var json: @Sendable (inout JSONValue) -> Void = { _ in }
        var files: @Sendable (inout [PassContents.File]) -> Void = { _ in }
        var testDescription: String { code + (path.map { " at \($0)" } ?? "") }
    }

    static let cases: [Case] = [
        Case(code: "required-key-missing", severity: .error, path: "organizationName", json: { $0.set("organizationName", nil) }),
        Case(code: "required-key-empty", severity: .error, path: "description", json: { $0.set("description", "") }),
        Case(code: "key-type", severity: .error, path: "serialNumber", json: { $0.set("serialNumber", 42) }),
        Case(code: "key-type", severity: .error, path: "voided", json: { $0.set("voided", "yes") }),
        Case(code: "format-version", severity: .error, json: { $0.set("formatVersion", 2) }),
        Case(code: "style-missing", severity: .error, json: { $0.set("eventTicket", nil) }),
        Case(code: "style-multiple", severity: .error, json: { $0.set("generic", ["primaryFields": []]) }),
        Case(code: "transit-type-missing", severity: .error, json: { $0.rename("eventTicket", to: "boardingPass") }),
        Case(
            code: "transit-type-invalid", severity: .error,
            json: {
                $0.rename("eventTicket", to: "boardingPass")
                $0.set("boardingPass.transitType", "PKTransitTypeRocket")
            }),
        Case(code: "transit-type-not-allowed", severity: .error, json: { $0.set("eventTicket.transitType", "PKTransitTypeAir") }),
        Case(code: "pass-type-identifier-format", severity: .error, json: { $0.set("passTypeIdentifier", "com.example.tickets") }),
        Case(code: "team-identifier-format", severity: .warning, json: { $0.set("teamIdentifier", "abc") }),
        Case(code: "field-key-missing", severity: .error, json: { $0.set("eventTicket.primaryFields[0].key", nil) }),
        Case(
            code: "field-key-duplicate", severity: .error, path: "eventTicket.backFields[0].key",
            json: { $0.set("eventTicket.backFields[0].key", "seat") }),
        Case(code: "field-value-missing", severity: .error, json: { $0.set("eventTicket.primaryFields[0].value", nil) }),
        Case(code: "field-value-type", severity: .error, json: { $0.set("eventTicket.primaryFields[0].value", true) }),
        Case(
            code: "field-change-message", severity: .error, json: { $0.set("eventTicket.secondaryFields[0].changeMessage", "Seat changed") }
        ),
        Case(code: "field-number-style", severity: .error, json: { $0.set("eventTicket.auxiliaryFields[0].value", "45") }),
        Case(code: "field-date-style", severity: .error, json: { $0.set("eventTicket.headerFields[0].value", "2026-12-24T19:30:00") }),
        Case(
            code: "field-date-style", severity: .error, path: "eventTicket.primaryFields[0].isRelative",
            json: { $0.set("eventTicket.primaryFields[0].isRelative", true) }),
        Case(
            code: "date-format", severity: .warning, path: "eventTicket.primaryFields[0].value",
            json: { $0.set("eventTicket.primaryFields[0].value", "2026-12-24T19:30") }),
        Case(code: "field-enum", severity: .error, json: { $0.set("eventTicket.headerFields[0].dateStyle", "PKDateStyleHuge") }),
        Case(code: "field-currency-code", severity: .error, json: { $0.set("eventTicket.auxiliaryFields[0].currencyCode", "euro") }),
        Case(
            code: "field-text-alignment", severity: .error,
            json: { $0.set("eventTicket.primaryFields[0].textAlignment", "PKTextAlignmentLeft") }),
        Case(code: "field-row", severity: .error, json: { $0.set("eventTicket.secondaryFields[0].row", 1) }),
        Case(
            code: "field-row", severity: .error, path: "eventTicket.auxiliaryFields[1].row",
            json: { $0.set("eventTicket.auxiliaryFields[1].row", 2) }),
        Case(
            code: "field-data-detectors", severity: .error,
            json: { $0.set("eventTicket.primaryFields[0].dataDetectorTypes", ["PKDataDetectorTypeLink"]) }),
        Case(
            code: "field-count", severity: .warning,
            json: {
                $0.set("eventTicket.primaryFields[1]", ["key": "second", "value": "x"])
            }),
        Case(code: "color-format", severity: .error, path: "backgroundColor", json: { $0.set("backgroundColor", "#ff0000") }),
        Case(code: "color-format", severity: .error, path: "foregroundColor", json: { $0.set("foregroundColor", "rgb(256, 0, 0)") }),
        Case(code: "date-format", severity: .error, path: "expirationDate", json: { $0.set("expirationDate", "2027-01-01") }),
        Case(code: "date-format", severity: .error, path: "relevantDate", json: { $0.set("relevantDate", "2026-12-24T19:30:00") }),
        Case(code: "relevant-date-interval", severity: .error, json: { $0.set("relevantDates", [["startDate": "2026-12-24T19:30:00Z"]]) }),
        Case(code: "relevant-date-empty", severity: .error, json: { $0.set("relevantDates", [["note": "x"]]) }),
        Case(code: "barcode-format", severity: .error, json: { $0.set("barcodes[0].format", "PKBarcodeFormatDataMatrix") }),
        Case(
            code: "barcode-key-missing", severity: .error, path: "barcodes[0].messageEncoding",
            json: { $0.set("barcodes[0].messageEncoding", nil) }),
        Case(
            code: "barcode-fallback-missing", severity: .error,
            json: {
                $0.set(
                    "barcodes",
                    [
                        ["format": "PKBarcodeFormatQR", "message": "1", "messageEncoding": "iso-8859-1"],
                        ["format": "PKBarcodeFormatEAN13", "message": "1", "messageEncoding": "iso-8859-1"],
                    ])
            }),
        Case(code: "barcode-watch", severity: .warning, json: { $0.set("barcodes[0].format", "PKBarcodeFormatCode128") }),
        Case(
            code: "barcode-deprecated", severity: .warning,
            json: {
                $0.set("barcode", ["format": "PKBarcodeFormatQR", "message": "1", "messageEncoding": "iso-8859-1"])
                $0.set("barcodes", nil)
            }),
        Case(code: "barcode-encoding", severity: .warning, json: { $0.set("barcodes[0].message", "Zoë ✓") }),
        Case(
            code: "nfc-certificate", severity: .warning,
            json: { $0.set("nfc", ["message": "m", "encryptionPublicKey": .string(TestTemplates.p256PublicKey)]) }),
        Case(
            code: "nfc-message-length", severity: .error,
            json: {
                $0.set(
                    "nfc",
                    ["message": .string(String(repeating: "x", count: 65)), "encryptionPublicKey": .string(TestTemplates.p256PublicKey)])
            }),
        Case(code: "nfc-public-key", severity: .error, json: { $0.set("nfc", ["message": "m", "encryptionPublicKey": "bm90IGEga2V5"]) }),
        Case(code: "nfc-key-missing", severity: .error, json: { $0.set("nfc", ["message": "m"]) }),
        Case(
            code: "nfc-sharing", severity: .warning,
            json: {
                $0.set(
                    "nfc", ["message": "m", "encryptionPublicKey": .string(TestTemplates.p256PublicKey), "requiresAuthentication": true])
            }),
        Case(code: "web-service-url-insecure", severity: .error, json: { $0.set("webServiceURL", "http://passes.example.com") }),
        Case(code: "web-service-url-invalid", severity: .error, json: { $0.set("webServiceURL", "passes.example.com") }),
        Case(code: "authentication-token-missing", severity: .error, json: { $0.set("authenticationToken", nil) }),
        Case(code: "authentication-token-short", severity: .error, json: { $0.set("authenticationToken", "short") }),
        Case(code: "authentication-token-unused", severity: .warning, json: { $0.set("webServiceURL", nil) }),
        Case(code: "app-launch-url-without-store", severity: .error, json: { $0.set("appLaunchURL", "example://open") }),
        Case(
            code: "locations-max", severity: .error,
            json: { $0.set("locations", .array(Array(repeating: ["latitude": 1, "longitude": 2], count: 11))) }),
        Case(
            code: "beacons-max", severity: .error, json: { $0.set("beacons", .array(Array(repeating: ["proximityUUID": "u"], count: 11))) }),
        Case(code: "location-coordinate", severity: .error, json: { $0.set("locations[0].latitude", "48.85") }),
        Case(code: "beacon-uuid", severity: .error, json: { $0.set("beacons", [["major": 1]]) }),
        Case(
            code: "grouping-identifier-style", severity: .warning,
            json: {
                $0.rename("eventTicket", to: "generic")
                $0.set("generic.auxiliaryFields[1].row", nil)
                $0.set("groupingIdentifier", "g")
            }),
        Case(code: "icon-missing", severity: .error, files: { $0.removeAll { $0.path.hasPrefix("icon") } }),
        Case(code: "image-scale-missing", severity: .warning, files: { $0.removeAll { $0.path == "logo@3x.png" } }),
        Case(
            code: "image-not-png", severity: .error,
            files: { $0.append(PassContents.File(path: "strip.png", bytes: Array("GIF89a...................".utf8))) }),
        Case(code: "image-size", severity: .warning, files: { $0 = $0.filter { !$0.path.hasPrefix("icon") } + images("icon", 29, 29) }),
        Case(
            code: "image-scale-mismatch", severity: .warning,
            files: {
                $0.removeAll { $0.path == "logo@2x.png" }
                $0.append(PassContents.File(path: "logo@2x.png", bytes: png(100, 40)))
            }),
        Case(code: "image-unused", severity: .warning, files: { $0 += images("footer", 286, 15) }),
        Case(code: "event-ticket-strip-and-background", severity: .warning, files: { $0 += images("strip", 375, 98) }),
        Case(code: "file-unknown", severity: .error, files: { $0.append(PassContents.File(path: "notes.txt", bytes: [65])) }),
        Case(
            code: "file-location", severity: .error, files: { $0.append(PassContents.File(path: "assets/logo.png", bytes: png(160, 50))) }),
        Case(
            code: "strings-syntax", severity: .error,
            files: {
                $0.append(PassContents.File(path: "en.lproj/pass.strings", bytes: Array("\"a\" = \"b\"".utf8)))
            }),
        Case(
            code: "localization-image-missing", severity: .warning,
            files: {
                $0 += images("logo", 160, 50, folder: "en.lproj/") + images("logo", 160, 50, folder: "fr.lproj/").dropLast()
            }),
        Case(
            code: "localization-key-missing", severity: .warning,
            files: {
                $0.append(PassContents.File(path: "en.lproj/pass.strings", bytes: Array("\"a\" = \"A\";\n\"b\" = \"B\";".utf8)))
                $0.append(PassContents.File(path: "fr.lproj/pass.strings", bytes: StringsFile.write([.init(key: "a", value: "À")])))
            }),
        Case(
            code: "personalization-without-nfc", severity: .error,
            files: {
                $0.append(
                    PassContents.File(
                        path: "personalization.json",
                        bytes: Array(#"{"requiredPersonalizationFields": ["PKPassPersonalizationFieldName"], "description": "Join"}"#.utf8))
                )
            }),
        Case(
            code: "personalization-fields", severity: .error,
            files: {
                $0.append(
                    PassContents.File(
                        path: "personalization.json",
                        bytes: Array(#"{"requiredPersonalizationFields": ["Shoe size"], "description": "Join"}"#.utf8)))
            }),
        Case(
            code: "personalization-description", severity: .error,
            files: {
                $0.append(
                    PassContents.File(
                        path: "personalization.json",
                        bytes: Array(#"{"requiredPersonalizationFields": ["PKPassPersonalizationFieldName"]}"#.utf8)))
            }),
    ]

    @Test(arguments: cases)
    func ruleIsCaught(_ rule: Case) {
        var json = JSONValue.object(Self.clean)
        rule.json(&json)
        var files = Self.cleanFiles
        rule.files(&files)
        let found = Self.lint(json.objectValue!, files)
        let matching = found.filter { $0.code == rule.code && (rule.path == nil || $0.path == rule.path || $0.file == rule.path) }
        #expect(!matching.isEmpty, "expected \(rule.code); found:\n\(found.map(\.description).joined(separator: "\n"))")
        #expect(matching.allSatisfy { $0.severity == rule.severity })
        #expect(matching.allSatisfy { !$0.message.isEmpty && !$0.fix.isEmpty })
        // The clean pass does not trigger the rule.
        #expect(!Self.lint(Self.clean).contains { $0.code == rule.code })
    }
}
