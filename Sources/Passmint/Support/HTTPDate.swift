package import Foundation

/// HTTP-dates (RFC 9110 §5.6.7), as `Last-Modified` and `If-Modified-Since` carry them. Written in the preferred
/// IMF-fixdate form (`Sun, 06 Nov 1994 08:49:37 GMT`); read in all three forms a recipient must accept: IMF-fixdate
/// (a one-digit day too), the obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`) and ANSI C's asctime() form
/// (`Sun Nov  6 08:49:37 1994`).
package enum HTTPDate {
    private static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The IMF-fixdate of `date` (whole seconds, rounded down).
    package static func string(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let dayNumber = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let secondOfDay = Int(seconds - Int64(dayNumber) * 86_400)
        let (year, month, day) = CivilDays.date(days: dayNumber)
        let weekday = days[((dayNumber + 3) % 7 + 7) % 7]  // 1970-01-01 was a Thursday
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let time = "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
        return "\(weekday), \(two(day)) \(months[month - 1]) \(year) \(time) GMT"
    }

    /// The date of an HTTP-date in any of its three forms; nil for anything else (then the request is treated as
    /// unconditional). A two-digit RFC 850 year more than 50 years after `now` is read as the most recent past year
    /// with those digits, as RFC 9110 asks. The weekday is not checked against the date.
    package static func parse(_ text: String, now: Date? = nil) -> Date? {
        let parts = text.split(separator: " ")
        if parts.count == 6, parts[0].last == ",", days.contains(String(parts[0].dropLast())), parts[5] == "GMT" {
            // IMF-fixdate: day-name "," SP day SP month SP year SP time SP "GMT"
            guard (1...2).contains(parts[1].count), parts[3].count == 4, let year = number(parts[3]) else { return nil }
            return date(year: year, month: parts[2], day: parts[1], time: parts[4])
        }
        if parts.count == 4, parts[0].last == ",", longDays.contains(String(parts[0].dropLast())), parts[3] == "GMT" {
            // RFC 850: day-name-l "," SP day "-" month "-" 2DIGIT SP time SP "GMT"
            let date = parts[1].split(separator: "-", omittingEmptySubsequences: false)
            guard date.count == 3, date[0].count == 2, date[2].count == 2, let twoDigits = number(date[2]) else { return nil }
            return self.date(year: fullYear(twoDigits, now: now ?? Date()), month: date[1], day: date[0], time: parts[2])
        }
        if parts.count == 5, days.contains(String(parts[0])) {
            // asctime: day-name SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time SP year
            guard (1...2).contains(parts[2].count), parts[4].count == 4, let year = number(parts[4]) else { return nil }
            return date(year: year, month: parts[1], day: parts[2], time: parts[3])
        }
        return nil
    }

    /// The year a two-digit RFC 850 year stands for: in the century of `now`, unless that is more than 50 years
    /// ahead of `now`; then a century earlier.
    static func fullYear(_ twoDigits: Int, now: Date) -> Int {
        let currentYear = CivilDays.date(days: Int((now.timeIntervalSince1970 / 86_400).rounded(.down))).year
        let year = currentYear - currentYear % 100 + twoDigits
        return year > currentYear + 50 ? year - 100 : year
    }

    /// The value of a run of ASCII digits; nil for anything else (a sign, a space, other digits).
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text)
    }

    private static func date(year: Int, month monthName: Substring, day dayText: Substring, time: Substring) -> Date? {
        guard let monthIndex = months.firstIndex(of: String(monthName)), let day = number(dayText) else { return nil }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }) else { return nil }
        let numbers = clock.compactMap(number)
        guard numbers.count == 3, numbers[0] < 24, numbers[1] < 60, numbers[2] < 61 else { return nil }
        guard (1...CivilDays.daysInMonth(monthIndex + 1, year: year)).contains(day) else { return nil }
        let days = CivilDays.days(year: year, month: monthIndex + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + numbers[0] * 3600 + numbers[1] * 60 + numbers[2]))
    }
}
