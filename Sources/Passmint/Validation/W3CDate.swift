public import Foundation

/// W3C / ISO 8601 date-times as Wallet reads them: a date, hours and minutes, optional seconds and fraction,
/// and a time-zone designator (`Z` or `±HH:MM`), e.g. `2026-12-24T19:30+01:00`.
public enum W3CDate {
    /// The parsed date, or nil when the text is not a complete W3C date-time with a time zone.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        func at(_ index: Int, _ char: Character) -> Bool { index < bytes.count && bytes[index] == char.asciiValue! }
        guard let year = digits(0, 4), at(4, "-"), let month = digits(5, 2), at(7, "-"), let day = digits(8, 2), at(10, "T"),
            let hour = digits(11, 2), at(13, ":"), let minute = digits(14, 2)
        else { return nil }
        var index = 16
        var second = 0.0
        if at(index, ":") {
            guard let whole = digits(index + 1, 2) else { return nil }
            second = Double(whole)
            index += 3
            if at(index, ".") {
                let start = index + 1
                index = start
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                guard index > start else { return nil }
                second += Double("0." + String(decoding: bytes[start..<index], as: UTF8.self)) ?? 0
            }
        }
        var offset = 0
        if at(index, "Z") {
            index += 1
        } else if at(index, "+") || at(index, "-") {
            let sign = at(index, "-") ? -1 : 1
            guard let hours = digits(index + 1, 2), at(index + 3, ":"), let minutes = digits(index + 4, 2), hours < 24, minutes < 60 else {
                return nil
            }
            offset = sign * (hours * 3600 + minutes * 60)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else {
            return nil
        }
        guard day <= CivilDays.daysInMonth(month, year: year) else { return nil }
        let days = CivilDays.days(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 - offset) + second
        return Date(timeIntervalSince1970: seconds)
    }

    /// A date without a time (`2026-12-24`), as the start of that day in UTC; nil for anything else. Wallet needs a
    /// time and a zone, but a preview shows such a value as the day it names (never a day before or after).
    package static func parseDay(_ text: String) -> Date? {
        guard text.utf8.count == 10, looksLikeDate(text) else { return nil }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]), (1...CivilDays.daysInMonth(parts[1], year: parts[0])).contains(parts[2]) else {
            return nil
        }
        return Date(timeIntervalSince1970: Double(CivilDays.days(year: parts[0], month: parts[1], day: parts[2]) * 86_400))
    }

    /// Whether `text` starts like a date (`YYYY-MM-DD`), to tell a date missing its zone from ordinary text.
    static func looksLikeDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8.prefix(10))
        guard bytes.count == 10 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 7 {
                if byte != UInt8(ascii: "-") { return false }
            } else if !(0x30...0x39).contains(byte) {
                return false
            }
        }
        return true
    }
}
