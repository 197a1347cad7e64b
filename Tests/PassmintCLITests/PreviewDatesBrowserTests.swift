import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// Dates and numbers in `passmint preview`, opened in headless Chromium: a date stays the day it names (a value without
/// a time, or shown without its time, in any zone), times are shown in `--time-zone`, else the project file's
/// `"timeZone"`, never the machine's when either is given; and the Google Wallet card writes numbers with their
/// decimals and dates as the Apple card does, in the preview's language.
@Suite(.serialized, .offPool, .enabled(if: TestEnvironment.runsChromiumTests)) struct PreviewDatesBrowserTests {
    /// A store card with a number with decimals, a day without a time, a date shown without its time (midnight in
    /// +01:00, the evening before in New York) and a time after midnight in +01:00 (the evening before in New York).
    static let passJSON = """
        {
          "formatVersion": 1, "serialNumber": "{{serialNumber}}", "organizationName": "Passmint Tests", "description": "Test card",
          "foregroundColor": "rgb(255, 255, 255)", "backgroundColor": "rgb(20, 120, 90)",
          "barcodes": [{"format": "PKBarcodeFormatQR", "message": "{{serialNumber}}", "messageEncoding": "iso-8859-1"}],
          "storeCard": {
            "primaryFields": [{"key": "points", "label": "Points", "value": "{{points}}", "numberStyle": "PKNumberStyleDecimal"}],
            "secondaryFields": [
              {"key": "day", "label": "Day", "value": "2026-12-24", "dateStyle": "PKDateStyleMedium"},
              {"key": "validFrom", "label": "Valid from", "value": "2026-12-25T00:00:00+01:00", "dateStyle": "PKDateStyleMedium",
               "timeStyle": "PKDateStyleNone"}
            ],
            "auxiliaryFields": [
              {"key": "doors", "label": "Doors", "value": "2026-12-25T01:30:00+01:00", "dateStyle": "PKDateStyleMedium",
               "timeStyle": "PKDateStyleShort"}
            ],
            "backFields": [{"key": "balance", "label": "Balance", "value": 1234.25, "numberStyle": "PKNumberStyleDecimal"}]
          }
        }
        """

    /// Previews the card in German from `folder` (where a passmint.json may lie) on a machine in Tokyo: the values
    /// of the Apple card's fields and of the Google card's, by key.
    static func preview(in folder: URL, _ extra: [String]) async throws -> (apple: [String: String], google: [String: String]) {
        let template = try TestTemplates.write(passJSON: passJSON)
        let page = folder.appendingPathComponent("card-\(UUID().uuidString).html").path
        let made = try await onOwnThread {
            try TestEnvironment.run(
                CreateCommandTests.binary,
                [
                    "preview", template.path, "--set", "serialNumber=D-1", "--set", "points:=3679.5", "--lang", "de", "--google",
                    "--no-watch",
                    "--output", page,
                ] + extra, environment: ["TZ": "Asia/Tokyo"], in: folder)
        }
        try #require(made.status == 0, "\(made.stderr)")
        let report = try await PreviewBrowserTests.open(page, ["--width", "1400"])
        var apple: [String: String] = [:]
        var google: [String: String] = [:]
        for field in report["fields"]?.arrayValue ?? [] {
            guard let key = field["key"]?.stringValue, let value = field["value"]?.stringValue else { continue }
            if field["area"] == "google" { google[key] = value } else if apple[key] == nil { apple[key] = value }
        }
        return (apple, google)
    }

    @Test func theProjectFilesTimeZoneIsTheViewersAndDatesStayDates() async throws {
        let folder = TestEnvironment.temporaryFolder("preview-dates")
        try Data(#"{ "timeZone": "America/New_York" }"#.utf8).write(to: folder.appendingPathComponent("passmint.json"))
        let (apple, google) = try await Self.preview(in: folder, [])
        #expect(apple["day"] == "24.12.2026", "a day without a time is that day: \(apple)")
        #expect(apple["validFrom"] == "25.12.2026", "a date shown without its time is the day written, not New York's 24th")
        #expect(apple["doors"] == "24.12.2026, 19:30", "a time in passmint.json's zone (New York), not the machine's (Tokyo)")
        #expect(apple["points"] == "3.679,5")
        #expect(apple["balance"] == "1.234,25")
        #expect(google["loyaltyPoints"] == "3.679,5", "the Google card keeps the decimals: \(google)")
        #expect(google["day"] == "24.12.2026" && google["validFrom"] == "25.12.2026", "no ISO dates on the Google card: \(google)")
        #expect(google["doors"] == "24.12.2026, 19:30")
        #expect(google["balance"] == "1.234,25")
    }

    @Test func timeZoneOptionWinsOverTheProjectFile() async throws {
        let folder = TestEnvironment.temporaryFolder("preview-dates-option")
        try Data(#"{ "timeZone": "America/New_York" }"#.utf8).write(to: folder.appendingPathComponent("passmint.json"))
        let (apple, google) = try await Self.preview(in: folder, ["--time-zone", "UTC"])
        #expect(apple["doors"] == "25.12.2026, 00:30")
        #expect(apple["validFrom"] == "25.12.2026" && apple["day"] == "24.12.2026")
        #expect(google["doors"] == "25.12.2026, 00:30")
    }

    @Test func withoutEitherTheMachinesZoneAndABadZoneIsNamed() async throws {
        let folder = TestEnvironment.temporaryFolder("preview-dates-machine")
        let (apple, _) = try await Self.preview(in: folder, [])
        #expect(apple["doors"] == "25.12.2026, 09:30", "Tokyo, the machine's zone")
        #expect(apple["day"] == "24.12.2026" && apple["validFrom"] == "25.12.2026")

        try Data(#"{ "timeZone": "Mars/Olympus" }"#.utf8).write(to: folder.appendingPathComponent("passmint.json"))
        let template = try TestTemplates.write(passJSON: Self.passJSON)
        let refused = try await onOwnThread {
            try TestEnvironment.run(
                CreateCommandTests.binary, ["preview", template.path, "--output", folder.appendingPathComponent("x.html").path],
                in: folder)
        }
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("\"timeZone\" Mars/Olympus is not a time zone"), "\(refused.stderr)")
    }
}
