import Foundation
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintPreview

/// Field values formatted as Wallet formats them, and the layout rules the preview applies.
@Suite(.computeThreads) struct PreviewFormattingTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let now = W3CDate.parse("2026-06-15T09:00:00Z")!
    let english = PreviewFormatter(language: "en", timeZone: Self.utc, now: Self.now)
    let strings = PreviewStrings(files: [], requested: nil)

    func value(_ field: JSONObject, _ formatter: PreviewFormatter? = nil) -> String {
        (formatter ?? english).value(of: field, strings: strings)
    }

    @Test func numbersFollowNumberStyleAndCurrency() {
        #expect(value(["key": "a", "value": 12.5, "currencyCode": "EUR"]) == "€12.50")
        #expect(value(["key": "a", "value": 0.25, "numberStyle": "PKNumberStylePercent"]) == "25%")
        #expect(value(["key": "a", "value": 1250, "numberStyle": "PKNumberStyleDecimal"]) == "1,250")
        #expect(value(["key": "a", "value": 3, "numberStyle": "PKNumberStyleSpellOut"]) == "three")
        #expect(value(["key": "a", "value": 1250]) == "1250")
        let french = PreviewFormatter(language: "fr", timeZone: Self.utc, now: Self.now)
        #expect(value(["key": "a", "value": 12.5, "currencyCode": "EUR"], french).contains("12,50"))
    }

    @Test func datesFollowTheirStylesAndTimeZones() {
        let field: JSONObject = [
            "key": "d", "value": "2026-06-20T18:30:00+02:00", "dateStyle": "PKDateStyleNone", "timeStyle": "PKDateStyleShort",
        ]
        // The viewer's time zone (UTC) by default; the value's own with ignoresTimeZone.
        #expect(value(field).hasPrefix("4:30"))
        var own = field
        own["ignoresTimeZone"] = true
        #expect(value(own).hasPrefix("6:30"))
        let medium: JSONObject = ["key": "d", "value": "2026-06-20T18:30:00Z", "dateStyle": "PKDateStyleMedium"]
        #expect(value(medium) == "Jun 20, 2026")
        // A date without styles is shown as written.
        #expect(value(["key": "d", "value": "2026-06-20T18:30:00Z"]) == "2026-06-20T18:30:00Z")
    }

    /// A date stays the day it names: a day without a time, and a date shown without its time, in any viewer's zone
    /// (west of Greenwich, where midnight in +01:00 is the evening before, and east, where it is the next morning).
    @Test(arguments: ["America/Los_Angeles", "America/New_York", "UTC", "Europe/Berlin", "Pacific/Kiritimati"])
    func datesStayTheDayTheyName(zone: String) throws {
        let viewer = PreviewFormatter(language: "en", timeZone: try #require(TimeZone(identifier: zone)), now: Self.now)
        #expect(value(["key": "d", "value": "2026-12-24", "dateStyle": "PKDateStyleMedium"], viewer) == "Dec 24, 2026")
        #expect(
            value(["key": "d", "value": "2026-12-24", "dateStyle": "PKDateStyleLong", "timeStyle": "PKDateStyleShort"], viewer)
                == "December 24, 2026")
        for text in ["2026-12-24T00:00:00+01:00", "2026-12-24T23:59:00-08:00", "2026-12-24T00:30:00+14:00"] {
            let field: JSONObject = ["key": "d", "value": .string(text), "dateStyle": "PKDateStyleMedium", "timeStyle": "PKDateStyleNone"]
            #expect(value(field, viewer) == "Dec 24, 2026", "\(text) in \(zone)")
        }
        #expect(value(["key": "d", "value": "2026-02-30", "dateStyle": "PKDateStyleMedium"], viewer) == "2026-02-30", "not a day")
    }

    /// W3C dates allow offsets no zone has (up to ±23:59); Foundation's date formatter stopped the process on one
    /// beyond ±14:00 (found by the preview's fuzz target). The time is shown as written.
    @Test func anOffsetBeyondEveryZoneShowsTheTimeAsWritten() {
        for (text, shown) in [
            ("2026-12-27T13:40:00+15:00", "Dec 27, 2026 at 1:40"), ("2026-12-27T23:10:00-23:59", "Dec 27, 2026 at 11:10"),
        ] {
            let field: JSONObject = [
                "key": "d", "value": .string(text), "dateStyle": "PKDateStyleMedium", "timeStyle": "PKDateStyleShort",
                "ignoresTimeZone": true,
            ]
            #expect(value(field).hasPrefix(shown), "\(text): \(value(field))")
            var day = field
            day["timeStyle"] = "PKDateStyleNone"
            day["ignoresTimeZone"] = false
            #expect(value(day) == "Dec 27, 2026", "\(text) without its time")
        }
    }

    @Test func timesAreShownInTheViewersZoneAcrossMidnight() {
        let newYork = PreviewFormatter(language: "en", timeZone: TimeZone(identifier: "America/New_York")!, now: Self.now)
        let field: JSONObject = [
            "key": "d", "value": "2026-12-25T01:30:00+01:00", "dateStyle": "PKDateStyleMedium", "timeStyle": "PKDateStyleShort",
        ]
        #expect(value(field, newYork).hasPrefix("Dec 24, 2026"), "\(value(field, newYork))")
        #expect(value(field, newYork).contains("7:30"))
        var own = field
        own["ignoresTimeZone"] = true
        #expect(value(own, newYork).hasPrefix("Dec 25, 2026"))
        let german = PreviewFormatter(language: "de", timeZone: TimeZone(identifier: "America/New_York")!, now: Self.now)
        #expect(value(field, german) == "24.12.2026, 19:30")
        #expect(value(["key": "d", "value": "2026-12-24", "dateStyle": "PKDateStyleMedium"], german) == "24.12.2026")
    }

    @Test func aDayIsTodayOrTomorrowByTheViewersCalendar() {
        // 04:00 UTC on the 24th is 23:00 on the 23rd in New York.
        let now = W3CDate.parse("2026-12-24T04:00:00Z")!
        let day: JSONObject = ["key": "d", "value": "2026-12-24", "dateStyle": "PKDateStyleMedium", "isRelative": true]
        #expect(value(day, PreviewFormatter(language: "en", timeZone: Self.utc, now: now)) == "Today")
        #expect(value(day, PreviewFormatter(language: "en", timeZone: TimeZone(identifier: "America/New_York")!, now: now)) == "Tomorrow")
    }

    @Test func relativeDatesSayTodayAndTomorrow() {
        let today: JSONObject = ["key": "d", "value": "2026-06-15T20:00:00Z", "dateStyle": "PKDateStyleMedium", "isRelative": true]
        #expect(value(today) == "Today")
        var tomorrow = today
        tomorrow["value"] = "2026-06-16T20:00:00Z"
        tomorrow["timeStyle"] = "PKDateStyleShort"
        #expect(value(tomorrow).hasPrefix("Tomorrow, 8:00"))
        var later = today
        later["value"] = "2026-06-25T20:00:00Z"
        #expect(value(later) == "Jun 25, 2026")
    }

    @Test func labelsAndValuesComeFromTheChosenLanguage() throws {
        let files = [
            PassContents.File(path: "de.lproj/pass.strings", bytes: Array("\"POINTS\" = \"Punkte\";".utf8)),
            PassContents.File(path: "fr.lproj/pass.strings", bytes: Array("\"POINTS\" = \"Points fidélité\";".utf8)),
        ]
        #expect(PreviewStrings(files: files, requested: "fr").localized("POINTS") == "Points fidélité")
        #expect(PreviewStrings(files: files, requested: "fr-CA").language == "fr")
        #expect(PreviewStrings(files: files, requested: nil).localized("POINTS") == "Punkte", "the first language by name")
        #expect(PreviewStrings(files: files, requested: "ja").language == "de")
        #expect(PreviewStrings(files: files, requested: "fr").localized("OTHER") == "OTHER")
    }

    @Test func acceptLanguagePicksAmongTheLanguagesOnOffer() {
        #expect(PreferredLanguage.ranges(acceptLanguage: "de-DE,de;q=0.9,en;q=0.8") == ["de-DE", "de", "en"])
        #expect(PreferredLanguage.ranges(acceptLanguage: "en;q=0.5, fr , *;q=0.1, ja;q=0, it;q=0.5") == ["fr", "en", "it"])
        #expect(PreferredLanguage.ranges(acceptLanguage: "<script>, de") == ["de"])
        #expect(PreferredLanguage.ranges(acceptLanguage: nil) == [])
        #expect(PreferredLanguage.match("de-AT", in: ["en", "de"]) == "de")
        #expect(PreferredLanguage.match("zh-hans", in: ["en", "zh-Hans"]) == "zh-Hans")
        #expect(PreferredLanguage.match("pt", in: ["en", "pt-BR"]) == "pt-BR")
        #expect(PreferredLanguage.match("ja", in: ["en", "fr"]) == nil)
        #expect(PreferredLanguage.best(acceptLanguage: "de-DE,de;q=0.9,fr;q=0.8", available: ["en", "fr"]) == "fr")
        #expect(PreferredLanguage.best(acceptLanguage: "fr;q=0.4,en;q=0.6", available: ["en", "fr"]) == "en")
        #expect(PreferredLanguage.best(acceptLanguage: "de", available: ["en", "fr"]) == nil)
        let files = [
            PassContents.File(path: "en.lproj/pass.strings", bytes: Array("\"HELLO\" = \"Hello\";".utf8)),
            PassContents.File(path: "fr.lproj/pass.strings", bytes: Array("\"HELLO\" = \"Bonjour\";".utf8)),
        ]
        let french = PreviewStrings(files: files, acceptLanguage: "fr-CA,en;q=0.5", table: "pass.strings")
        #expect(french.language == "fr" && french.localized("HELLO") == "Bonjour")
        #expect(PreviewStrings(files: files, acceptLanguage: "ja", table: "pass.strings").language == "en", "the first")
        #expect(PreviewStrings(files: files, acceptLanguage: "ja", table: "pass.strings", fallback: "fr").language == "fr")
    }

    @Test func alignmentAndChangeMessage() throws {
        let field = try #require(
            PreviewCard.field(
                ["key": "k", "label": "L", "value": "V", "textAlignment": "PKTextAlignmentRight", "changeMessage": "Now %@"],
                strings: strings, formatter: english))
        #expect(field.alignment == "right")
        #expect(field.value == "V")
    }

    @Test func fieldLimitsPerStyle() {
        #expect(PreviewLayout.limits(style: .boardingPass, squareBarcode: false).primary == 2)
        #expect(PreviewLayout.limits(style: .boardingPass, squareBarcode: false).auxiliary == 5)
        #expect(PreviewLayout.limits(style: .storeCard, squareBarcode: true).secondaryAndAuxiliary == 4)
        #expect(PreviewLayout.limits(style: .storeCard, squareBarcode: false).secondaryAndAuxiliary == nil)
        #expect(PreviewLayout.limits(style: .eventTicket, squareBarcode: true).secondaryAndAuxiliary == nil)
        #expect(PreviewLayout.images(style: .eventTicket, hasStrip: true) == ["logo", "strip"])
        #expect(PreviewLayout.images(style: .eventTicket, hasStrip: false) == ["logo", "background", "thumbnail"])
        #expect(PreviewLayout.images(style: .generic, hasStrip: true) == ["logo", "thumbnail"])
    }

    @Test func enhancedLayoutsOnlyWhenTheirRulesAreMet() {
        let missing = Diagnostic(.error, "poster-semantics-missing", path: "semantics.venueName", "m", fix: "f")
        #expect(
            PreviewLayout.kind(style: .eventTicket, schemes: ["posterEventTicket", "eventTicket"], diagnostics: []) == .posterEventTicket)
        #expect(PreviewLayout.kind(style: .eventTicket, schemes: ["posterEventTicket"], diagnostics: [missing]) == .classic)
        #expect(PreviewLayout.kind(style: .eventTicket, schemes: [], diagnostics: []) == .classic)
        #expect(PreviewLayout.kind(style: .boardingPass, schemes: ["semanticBoardingPass"], diagnostics: []) == .semanticBoardingPass)
        let transit = Diagnostic(.error, "semantic-boarding-pass-transit", path: "", "m", fix: "f")
        #expect(PreviewLayout.kind(style: .boardingPass, schemes: ["semanticBoardingPass"], diagnostics: [transit]) == .classic)
    }

    @Test func theBarcodeShownSkipsWhatTheDeviceCannotDraw() {
        let ean = Barcode(format: .ean13, message: "4006381333931")
        let code128 = Barcode(format: .code128, message: "A1")
        let qr = Barcode(format: .qr, message: "A1")
        #expect(PreviewLayout.barcode([ean, code128, qr], watch: false) == code128)
        #expect(PreviewLayout.barcode([ean, code128, qr], watch: true) == qr)
        #expect(PreviewLayout.barcode([code128], watch: true) == nil)
        #expect(PreviewLayout.barcode([ean, code128, qr], watch: false, iOS27: true) == ean)
    }

    @Test func theWordsThePreviewWritesFollowTheLanguage() {
        #expect(PreviewWords.text("Seat", language: "fr") == "Place")
        #expect(PreviewWords.text("Seat", language: "de-CH") == "Sitz")
        #expect(PreviewWords.text("Seat", language: "zh-Hans") == "Seat")
        #expect(PreviewWords.text("Seat", language: nil) == "Seat")
        for (english, translations) in PreviewWords.table {
            #expect(Set(translations.keys) == Set(PreviewWords.languages), "\(english)")
        }
    }

    @Test func colorsParse() {
        #expect(PreviewColor("rgb(23, 187, 82)") == PreviewColor(red: 23, green: 187, blue: 82))
        #expect(PreviewColor("#17bb52") == PreviewColor(red: 23, green: 187, blue: 82))
        #expect(PreviewColor("#fff") == PreviewColor(red: 255, green: 255, blue: 255))
        #expect(PreviewColor("rgb(300, 0, 0)") == nil)
        #expect(PreviewColor("blue") == nil)
    }
}
