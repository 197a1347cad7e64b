import Foundation
public import Passmint

/// How a spreadsheet writes numbers, dates and yes/no values, so that its text becomes what the pass needs: a JSON
/// number, an ISO 8601 date, a boolean. With a locale (`de-DE`) numbers are read as it writes them (`1.234,5`) and
/// dates in its short form (`17.05.2023`); ISO dates (`2023-05-17`, `2023-05-17T08:30:00+02:00`) are always read.
public struct SpreadsheetFormat: Sendable {
    /// The locale's name as given, nil for none.
    public let localeName: String?
    /// Between the whole number and its fraction: "." without a locale.
    public let decimalSeparator: Character
    /// Between groups of thousands: "," without a locale.
    public let groupingSeparator: Character
    /// Date patterns tried in order (`dd.MM.yyyy`): `--date-format` first, then the locale's short date.
    public let datePatterns: [String]
    /// For dates written without a time zone.
    let timeZone: TimeZone
    /// Its IANA name (`Europe/Berlin`).
    public var timeZoneName: String { timeZone.identifier }
    /// Words read as true and false beside true/false, yes/no and 1/0.
    let trueWords: Set<String>
    let falseWords: Set<String>

    /// `locale` a BCP 47 or POSIX name (`de-DE`, `de_AT`); `dateFormat` a pattern of `d`, `M`, `y`, `H`, `m`, `s` and
    /// literal characters (`dd.MM.yyyy`, `MM/dd/yyyy HH:mm`); `timeZone` an IANA name (`Europe/Berlin`) or `UTC`
    /// (default: this computer's).
    public init(locale: String?, dateFormat: String?, timeZone: String?) throws(PassmintError) {
        var patterns: [String] = []
        if let dateFormat {
            guard DatePattern(dateFormat).hasDate else {
                throw PassmintError(
                    .invalidData,
                    "--date-format \(dateFormat) has no day, month and year: write it with dd, MM and yyyy, e.g. dd.MM.yyyy or MM/dd/yyyy")
            }
            patterns.append(dateFormat)
        }
        if let locale {
            let identifier = locale.replacingOccurrences(of: "-", with: "_")
            guard Locale.availableIdentifiers.contains(identifier) || Locale.availableIdentifiers.contains(String(identifier.prefix(2)))
            else {
                throw PassmintError(
                    .invalidData, "--locale \(locale) is not a locale: give a language and region, e.g. de-DE, fr-FR or en-US")
            }
            let value = Locale(identifier: identifier)
            decimalSeparator = value.decimalSeparator?.first ?? "."
            groupingSeparator = value.groupingSeparator?.first ?? (decimalSeparator == "," ? "." : ",")
            let formatter = DateFormatter()
            formatter.locale = value
            formatter.dateStyle = .short
            formatter.timeStyle = .none
            if !formatter.dateFormat.isEmpty, DatePattern(formatter.dateFormat).hasDate { patterns.append(formatter.dateFormat) }
            let words = Self.booleanWords[String(identifier.prefix(2)).lowercased()]
            trueWords = words?.0 ?? []
            falseWords = words?.1 ?? []
        } else {
            decimalSeparator = "."
            groupingSeparator = ","
            trueWords = []
            falseWords = []
        }
        if let timeZone {
            guard let zone = FormattableTimeZone.named(timeZone) else {
                throw PassmintError(
                    .invalidData,
                    "--time-zone \(timeZone) is not a time zone within ±14:00 of UTC: give an IANA name, e.g. Europe/Berlin, or UTC")
            }
            self.timeZone = zone
        } else {
            self.timeZone = .current
        }
        localeName = locale
        datePatterns = patterns
    }

    /// No locale: numbers as `1,234.5`, ISO dates, this computer's time zone.
    public init() {
        localeName = nil
        decimalSeparator = "."
        groupingSeparator = ","
        datePatterns = []
        timeZone = .current
        trueWords = []
        falseWords = []
    }

    static let booleanWords: [String: (Set<String>, Set<String>)] = [
        "de": (["ja", "wahr", "x"], ["nein", "falsch"]),
        "fr": (["oui", "vrai", "x"], ["non", "faux"]),
        "es": (["sí", "si", "verdadero", "x"], ["no", "falso"]),
        "it": (["sì", "si", "vero", "x"], ["no", "falso"]),
        "nl": (["ja", "waar", "x"], ["nee", "onwaar"]),
    ]

    /// A number as the spreadsheet writes it (`1.234,5` with de-DE, `1,234.5` without a locale, `-12`, `3e2`).
    public func number(_ text: String) -> JSONNumber? {
        var cleaned = ""
        for character in text.trimmingCharacters(in: .whitespaces) {
            if character == groupingSeparator || character == "\u{00A0}" || character == "\u{202F}" || character == "'" { continue }
            cleaned.append(character == decimalSeparator ? "." : character)
        }
        if cleaned.hasPrefix("+") { cleaned.removeFirst() }
        if cleaned.hasPrefix(".") { cleaned = "0" + cleaned }
        if cleaned.hasPrefix("-.") { cleaned = "-0" + cleaned.dropFirst() }
        guard !cleaned.isEmpty, let value = try? JSONParser.value(Array(cleaned.utf8)), case .number(let number) = value else { return nil }
        return number
    }

    /// A boolean: true/false, yes/no, 1/0, and the locale's words (ja/nein).
    public func boolean(_ text: String) -> Bool? {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        if ["true", "yes", "1", "y"].contains(word) || trueWords.contains(word) { return true }
        if ["false", "no", "0", "n"].contains(word) || falseWords.contains(word) { return false }
        return nil
    }

    /// A date as ISO 8601 with its time zone (`2023-05-17T00:00:00+02:00`): an ISO date with a time zone is kept as it
    /// is; other forms are read with ``datePatterns`` or as ISO without a zone, in ``timeZoneName``.
    public func date(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if DatePattern.isISOWithZone(trimmed) { return trimmed }
        for pattern in datePatterns + DatePattern.isoPatterns {
            if let parts = DatePattern(pattern).read(trimmed) { return parts.iso8601(in: timeZone) }
        }
        return nil
    }

    /// How numbers are written, for a message: "1,234.5", or "1.234,5" with de-DE.
    public var numberExample: String { "1\(groupingSeparator)234\(decimalSeparator)5" }

    /// How dates are written, for a message: "17.05.2023" with de-DE, "2023-05-17" without a locale.
    public var dateExample: String {
        guard let pattern = datePatterns.first else { return "2023-05-17" }
        return DatePattern(pattern).example
    }
}
