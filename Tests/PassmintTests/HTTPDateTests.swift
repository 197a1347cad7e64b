import Foundation
import PassmintTestTraits
import Testing

@testable import Passmint

/// HTTP-dates: written as IMF-fixdate, read in the three forms RFC 9110 §5.6.7 asks recipients to accept.
@Suite(.computeThreads) struct HTTPDateTests {
    /// 1994-11-06T08:49:37Z, the RFC's own example.
    static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test func writesIMFFixdate() {
        #expect(HTTPDate.string(Self.example) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.string(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.string(Date(timeIntervalSince1970: 951_782_400.9)) == "Tue, 29 Feb 2000 00:00:00 GMT", "whole seconds, leap day")
        #expect(HTTPDate.string(Date(timeIntervalSince1970: -1)) == "Wed, 31 Dec 1969 23:59:59 GMT")
    }

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",  // IMF-fixdate
        "Sunday, 06-Nov-94 08:49:37 GMT",  // obsolete RFC 850 form
        "Sun Nov  6 08:49:37 1994",  // ANSI C's asctime() form
        "Sun Nov 06 08:49:37 1994",
        "Sun, 6 Nov 1994 08:49:37 GMT",  // a one-digit day, as some clients write it
    ])
    func readsEveryForm(_ text: String) {
        #expect(HTTPDate.parse(text, now: Date(timeIntervalSince1970: 1_800_000_000)) == Self.example)
    }

    @Test func roundTripsEverySecondItWrites() {
        for seconds in stride(from: -2_000_000_000, through: 4_000_000_000, by: 86_399 * 37) {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(HTTPDate.parse(HTTPDate.string(date)) == date, "\(HTTPDate.string(date))")
        }
    }

    @Test func aTwoDigitYearMoreThan50YearsAheadIsInThePastCentury() {
        let in2026 = Date(timeIntervalSince1970: 1_780_000_000)
        func year(_ twoDigits: String) -> Date? { HTTPDate.parse("Monday, 01-Jan-\(twoDigits) 00:00:00 GMT", now: in2026) }
        #expect(HTTPDate.fullYear(76, now: in2026) == 2076, "50 years ahead: kept")
        #expect(HTTPDate.fullYear(77, now: in2026) == 1977, "51 years ahead: the century before")
        #expect(HTTPDate.fullYear(26, now: in2026) == 2026)
        #expect(HTTPDate.fullYear(0, now: in2026) == 2000)
        #expect(year("99") == Date(timeIntervalSince1970: 915_148_800), "1999-01-01")
        #expect(year("30") == Date(timeIntervalSince1970: 1_893_456_000), "2030-01-01")
    }

    @Test(arguments: [
        "", "yesterday", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 94 08:49:37 GMT",
        "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 29 Feb 1900 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, +6 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun, 06-Nov-94 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37", "Sun Nov  6 08:49:37 94",
        "Sunday Nov  6 08:49:37 1994", "Sun Nov 123 08:49:37 1994",
    ])
    func refusesWhatIsNotAnHTTPDate(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func leapSecondsAndLeapDaysRead() {
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 12:00:00 GMT") == Date(timeIntervalSince1970: 1_709_208_000))
        let leapSecond = HTTPDate.parse("Sat, 31 Dec 2016 23:59:60 GMT")
        #expect(leapSecond == Date(timeIntervalSince1970: 1_483_228_800), "60 seconds: the next second")
    }
}
