package import Foundation

/// The time zones Foundation's date formatter can take: those within ±14:00 of UTC, as every real zone is. It stops
/// the process on one beyond, which `TimeZone(identifier: "GMT+15")` and `TimeZone(secondsFromGMT:)` both make, and
/// which W3C dates (offsets up to ±23:59) may name.
package enum FormattableTimeZone {
    /// The largest offset from UTC a zone has (Kiribati's +14:00), in seconds.
    package static let maximumOffset = 14 * 3600

    /// The zone a user named (`--time-zone`, a project file's `"timeZone"`): an IANA name (`Europe/Paris`, `UTC`) or a
    /// fixed offset Foundation reads (`GMT+2`); nil for anything else or an offset beyond ±14:00.
    package static func named(_ name: String) -> TimeZone? {
        guard let zone = TimeZone(identifier: name), abs(zone.secondsFromGMT()) <= maximumOffset else { return nil }
        return zone
    }

    /// The zone of a UTC offset in seconds; nil beyond ±14:00.
    package static func offset(_ seconds: Int) -> TimeZone? {
        abs(seconds) <= maximumOffset ? TimeZone(secondsFromGMT: seconds) : nil
    }
}
