public import Foundation

/// RFC 3339 date-times, the dates of `order.json`: a full date, hours, minutes and seconds (an optional fraction) and
/// a time-zone offset (`Z` or `±HH:MM`), e.g. `2026-11-26T09:30:00Z`. Unlike pass dates, seconds are not optional.
public enum RFC3339Date {
    /// The parsed date, or nil when `text` is not an RFC 3339 date-time.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        // W3CDate reads the same shape with optional seconds; RFC 3339 requires them (`…THH:MM:SS`).
        guard bytes.count >= 20, bytes[16] == UInt8(ascii: ":") else { return nil }
        return W3CDate.parse(text)
    }

    /// `date` written in UTC with whole seconds, e.g. `2026-11-26T09:30:00Z`.
    public static func string(from date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
