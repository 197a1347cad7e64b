import Foundation
import Passmint

/// A date pattern as spreadsheets and ICU write them: `d`/`dd` day, `M`/`MM` month, `y`/`yy`/`yyyy` year (two or four
/// digits either way), `H`/`HH` hour, `m`/`mm` minute, `s`/`ss` second, anything else literal (`'…'` quotes letters).
/// A time may follow any date pattern (`17.05.2023 08:30`). Reading is strict: the whole text, real calendar dates.
struct DatePattern {
    enum Token: Equatable {
        case day, month, year, hour, minute, second
        case literal(Character)
    }

    let tokens: [Token]

    /// The ISO forms always read: a date, or a date and time without a zone.
    static let isoPatterns = ["yyyy-MM-dd", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm"]

    init(_ pattern: String) {
        var tokens: [Token] = []
        var quoted = false
        var previous: Character?
        for character in pattern {
            defer { previous = character }
            if character == "'" {
                quoted.toggle()
                continue
            }
            if quoted {
                tokens.append(.literal(character))
                continue
            }
            let token: Token? =
                switch character {
                case "d": .day
                case "M", "L": .month
                case "y", "u": .year
                case "H", "h", "k": .hour
                case "m": .minute
                case "s": .second
                default: nil
                }
            guard let token else {
                tokens.append(.literal(character))
                continue
            }
            if previous == character, tokens.last == token { continue }
            tokens.append(token)
        }
        self.tokens = tokens
    }

    var hasDate: Bool { tokens.contains(.day) && tokens.contains(.month) && tokens.contains(.year) }

    /// 17 May 2023 in this pattern, for messages.
    var example: String {
        tokens.map { token in
            switch token {
            case .day: "17"
            case .month: "05"
            case .year: "2023"
            case .hour: "08"
            case .minute: "30"
            case .second: "00"
            case .literal(let character): String(character)
            }
        }.joined()
    }

    struct Parts {
        var year = 0
        var month = 0
        var day = 0
        var hour = 0
        var minute = 0
        var second = 0

        /// ISO 8601 with the zone's offset on that day: `2023-05-17T00:00:00+02:00`.
        func iso8601(in zone: TimeZone) -> String? {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            guard let date = calendar.date(from: components) else { return nil }
            let offset = zone.secondsFromGMT(for: date)
            let zoneText = (offset < 0 ? "-" : "+") + Self.twoDigits(abs(offset) / 3600) + ":" + Self.twoDigits(abs(offset) % 3600 / 60)
            let year = String(year)
            return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + Self.twoDigits(month) + "-"
                + Self.twoDigits(day) + "T" + Self.twoDigits(hour) + ":" + Self.twoDigits(minute) + ":" + Self.twoDigits(second)
                + zoneText
        }

        static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
    }

    /// The date in `text`, read with this pattern and an optional ` HH:mm[:ss]` after it; nil when it does not fit or
    /// is no calendar date (31.02.).
    func read(_ text: String) -> Parts? {
        var reader = DigitReader(characters: Array(text))
        var parts = Parts()
        for token in tokens {
            switch token {
            case .day: parts.day = reader.digits(min: 1, max: 2) ?? -1
            case .month: parts.month = reader.digits(min: 1, max: 2) ?? -1
            case .year:
                let start = reader.index
                guard let value = reader.digits(min: 2, max: 4), reader.index - start != 3 else { return nil }
                parts.year = reader.index - start == 2 ? 2000 + value : value
            case .hour: parts.hour = reader.digits(min: 1, max: 2) ?? 99
            case .minute: parts.minute = reader.digits(min: 2, max: 2) ?? 99
            case .second: parts.second = reader.digits(min: 2, max: 2) ?? 99
            case .literal(let character):
                guard reader.take(character) else { return nil }
            }
        }
        if !reader.atEnd, !tokens.contains(.hour) {
            // An optional time after the date: " 08:30" or " 08:30:00".
            guard reader.take(" "), let hour = reader.digits(min: 1, max: 2), reader.take(":"),
                let minute = reader.digits(min: 2, max: 2)
            else { return nil }
            parts.hour = hour
            parts.minute = minute
            if reader.take(":") {
                guard let second = reader.digits(min: 2, max: 2) else { return nil }
                parts.second = second
            }
        }
        guard reader.atEnd, (1...12).contains(parts.month), parts.day >= 1, parts.hour < 24, parts.minute < 60, parts.second < 60
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let first = calendar.date(from: DateComponents(year: parts.year, month: parts.month, day: 1)),
            let days = calendar.range(of: .day, in: .month, for: first), days.contains(parts.day)
        else { return nil }
        return parts
    }

    /// `2023-05-17T08:30:00+02:00`, `…Z`, with optional fractions of a second: kept as the user wrote it.
    /// Read byte by byte: a regular expression compiled for every value cost 3.5 % of a batch's CPU with a template of
    /// three dates.
    static func isISOWithZone(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Bool {
            guard index + count <= bytes.count, bytes[index..<index + count].allSatisfy({ (0x30...0x39).contains($0) }) else {
                return false
            }
            index += count
            return true
        }
        func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        // yyyy-MM-ddTHH:mm
        guard digits(4), take(0x2D), digits(2), take(0x2D), digits(2), take(0x54), digits(2), take(0x3A), digits(2) else { return false }
        // optional :ss and .fraction
        if take(0x3A) {
            guard digits(2) else { return false }
            if take(0x2E) {
                guard digits(1) else { return false }
                while digits(1) {}
            }
        }
        // Z or ±HH:mm, then the end
        if take(0x5A) { return index == bytes.count }
        guard take(0x2B) || take(0x2D), digits(2), take(0x3A), digits(2) else { return false }
        return index == bytes.count
    }
}

/// Reads ASCII digits and literal characters from the front of a text.
private struct DigitReader {
    let characters: [Character]
    var index = 0

    var atEnd: Bool { index == characters.count }

    mutating func digits(min: Int, max: Int) -> Int? {
        var value = 0
        var count = 0
        while index < characters.count, count < max, characters[index].isASCII, let digit = characters[index].wholeNumberValue {
            value = value * 10 + digit
            count += 1
            index += 1
        }
        return count >= min ? value : nil
    }

    mutating func take(_ character: Character) -> Bool {
        guard index < characters.count, characters[index] == character else { return false }
        index += 1
        return true
    }
}
