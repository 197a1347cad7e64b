public import Foundation

/// The rules every store follows when a pass gets a new version, written once for both backends: each version takes
/// the next tag of the store's counter, and a `Last-Modified` date that never repeats for the pass.
extension StoredPass {
    /// The first version of a newly issued pass, with the tag the store's counter gave it.
    public func firstVersion(tag: Int64, now: Date = Date()) -> StoredPass {
        var pass = self
        pass.updateTag = tag
        pass.updatedAt = Self.nextUpdateDate(after: nil, now: now)
        return pass
    }

    /// The version after a change, with the tag the store's counter gave it.
    public func nextVersion(tag: Int64, now: Date = Date()) -> StoredPass {
        var pass = self
        pass.updateTag = tag
        pass.updatedAt = Self.nextUpdateDate(after: updatedAt, now: now)
        return pass
    }

    /// The next `updatedAt` after a change: now, but always at least one second after the previous one, so that
    /// `If-Modified-Since` (whole seconds) never hides a change.
    public static func nextUpdateDate(after previous: Date?, now: Date = Date()) -> Date {
        let whole = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        guard let previous else { return whole }
        return max(whole, Date(timeIntervalSince1970: previous.timeIntervalSince1970.rounded(.down) + 1))
    }
}
