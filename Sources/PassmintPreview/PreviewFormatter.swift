import Foundation
import Passmint

/// Formats field values as Wallet does: dates by `dateStyle`/`timeStyle` (relative with `isRelative`, in the value's
/// own time zone with `ignoresTimeZone`, else the viewer's), numbers by `numberStyle` or as money in `currencyCode`,
/// and localizable strings through the pass's `pass.strings`. `changeMessage` is never shown. Dates stay dates: a value
/// without a time (`2026-12-24`) and a value shown without its time (no `timeStyle`) show the day they name, never
/// the day before or after in the viewer's time zone. The one formatter of Passmint's previews: the Google Wallet card
/// (``GoogleCardPreview``) formats its numbers and dates with it too.
struct PreviewFormatter: Sendable {
    /// The locale of the language shown (`en` when the pass has none).
    let locale: Locale
    /// The viewer's time zone.
    let timeZone: TimeZone
    /// "Now", for relative dates and the expired look.
    let now: Date

    init(language: String?, timeZone: TimeZone, now: Date) {
        self.locale = Locale(identifier: (language ?? "en").replacingOccurrences(of: "-", with: "_"))
        self.timeZone = timeZone
        self.now = now
    }

    /// The formatter of a preview drawn with `options`, in the device's language (``PreviewPage/deviceLanguage(_:_:)``).
    init(options: PassPreview.Options, strings: PreviewStrings) {
        self.init(language: PreviewPage.deviceLanguage(options, strings), timeZone: options.timeZone, now: options.now)
    }

    /// The text a field shows as its value.
    func value(of field: JSONObject, strings: PreviewStrings) -> String {
        let shown = field["attributedValue"].flatMap { Self.plainText($0) } ?? field["value"]
        switch shown {
        case .number(let number)?:
            return format(number: number.doubleValue, field: field)
        case .string(let text)?:
            let dateStyle = DateStyle(rawValue: field["dateStyle"]?.stringValue ?? "")
            let timeStyle = DateStyle(rawValue: field["timeStyle"]?.stringValue ?? "")
            if dateStyle != nil || timeStyle != nil, let date = W3CDate.parse(text) ?? W3CDate.parseDay(text) {
                return format(
                    date: date, source: text, dateStyle: dateStyle ?? .none, timeStyle: timeStyle ?? .none,
                    relative: field["isRelative"]?.boolValue == true, ignoresTimeZone: field["ignoresTimeZone"]?.boolValue == true)
            }
            return strings.localized(text)
        case .bool(let flag)?:
            return flag ? "true" : "false"
        default:
            return ""
        }
    }

    /// A number as `numberStyle` (or, with `currencyCode`, as money) writes it in the locale.
    func format(number: Double, field: JSONObject) -> String {
        let formatter = NumberFormatter()
        formatter.locale = locale
        if let currency = field["currencyCode"]?.stringValue, !currency.isEmpty {
            formatter.numberStyle = .currency
            formatter.currencyCode = currency
        } else {
            switch NumberStyle(rawValue: field["numberStyle"]?.stringValue ?? "") {
            case .decimal?: formatter.numberStyle = .decimal
            case .percent?: formatter.numberStyle = .percent
            case .scientific?: formatter.numberStyle = .scientific
            case .spellOut?: formatter.numberStyle = .spellOut
            case nil:
                formatter.numberStyle = .none
                formatter.maximumFractionDigits = 6
            }
        }
        return formatter.string(from: NSNumber(value: number)) ?? String(number)
    }

    /// A date in the given styles. `source` is the W3C text, whose own offset is used with `ignoresTimeZone` and when no
    /// time is shown (a date is the day written, wherever it is read); a day without a time (`2026-12-24`, from
    /// ``W3CDate/parseDay(_:)``) shows no time either.
    func format(date: Date, source: String, dateStyle: DateStyle, timeStyle: DateStyle, relative: Bool, ignoresTimeZone: Bool) -> String {
        let dayOnly = W3CDate.parseDay(source) != nil
        let timeStyle = dayOnly ? .none : timeStyle
        let formatter = DateFormatter()
        formatter.locale = locale
        var date = date
        if dayOnly {
            formatter.timeZone = TimeZone(secondsFromGMT: 0)
        } else if ignoresTimeZone || timeStyle == .none, let offset = Self.offset(of: source) {
            if let zone = FormattableTimeZone.offset(offset) {
                formatter.timeZone = zone
            } else {
                // An offset no zone has (beyond ±14:00, which Foundation's formatter cannot take): the time as written,
                // shown as UTC's clock shifted by it.
                formatter.timeZone = TimeZone(secondsFromGMT: 0)
                date += Double(offset)
            }
        } else {
            formatter.timeZone = timeZone
        }
        formatter.dateStyle = Self.style(dateStyle)
        formatter.timeStyle = Self.style(timeStyle)
        if relative && dateStyle != .none,
            let word = Self.relativeDay(days(from: now, in: timeZone, to: date, in: formatter.timeZone), locale: locale)
        {
            guard timeStyle != .none else { return word }
            formatter.dateStyle = .none
            return word + ", " + formatter.string(from: date)
        }
        return formatter.string(from: date)
    }

    /// Days from the day of `start` in `startZone` to the day of `end` in `endZone` ("now" where the viewer is, the
    /// date where it is shown).
    func days(from start: Date, in startZone: TimeZone, to end: Date, in endZone: TimeZone) -> Int {
        func day(_ date: Date, _ zone: TimeZone) -> Int {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return CivilDays.days(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
        }
        return day(end, endZone) - day(start, startZone)
    }

    /// "Today", "Tomorrow" or "Yesterday" in the locale's language (English for languages not listed), nil otherwise.
    static func relativeDay(_ days: Int, locale: Locale) -> String? {
        let words: [String: [String]] = [
            "en": ["Yesterday", "Today", "Tomorrow"], "fr": ["Hier", "Aujourd’hui", "Demain"], "de": ["Gestern", "Heute", "Morgen"],
            "es": ["Ayer", "Hoy", "Mañana"], "it": ["Ieri", "Oggi", "Domani"], "nl": ["Gisteren", "Vandaag", "Morgen"],
            "zh": ["昨天", "今天", "明天"], "ja": ["昨日", "今日", "明日"],
        ]
        guard (-1...1).contains(days) else { return nil }
        let language = locale.identifier.split(whereSeparator: { $0 == "_" || $0 == "-" }).first.map(String.init) ?? "en"
        return (words[language] ?? words["en"]!)[days + 1]
    }

    /// The UTC offset in seconds of a W3C date's designator (`Z`, `+02:00`, `-0800`), nil when it has none.
    static func offset(of text: String) -> Int? {
        if text.hasSuffix("Z") || text.hasSuffix("z") { return 0 }
        let tail = text.suffix(6)
        guard let sign = tail.first(where: { $0 == "+" || $0 == "-" }), let signIndex = tail.lastIndex(of: sign) else { return nil }
        let digits = tail[tail.index(after: signIndex)...].filter(\.isNumber)
        guard digits.count == 4, let hours = Int(digits.prefix(2)), let minutes = Int(digits.suffix(2)) else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    static func style(_ style: DateStyle) -> DateFormatter.Style {
        switch style {
        case .none: .none
        case .short: .short
        case .medium: .medium
        case .long: .long
        case .full: .full
        }
    }

    /// The text of an `attributedValue` without its markup (`<a href='…'>Text</a>` shows as "Text").
    static func plainText(_ value: JSONValue) -> JSONValue? {
        guard case .string(let html) = value else { return value }
        var output = ""
        var inTag = false
        for character in html {
            if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag { output.append(character) }
        }
        return .string(output)
    }
}
