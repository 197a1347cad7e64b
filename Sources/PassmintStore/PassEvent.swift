public import Foundation

/// What happened to a pass, as the statistics count it (``PassEvent``).
public enum PassEventKind: String, Sendable, CaseIterable, Codable {
    /// The pass was issued (one event per pass, also for an import).
    case issued
    /// Its "Add to Apple Wallet" page was opened.
    case linkViewed = "link.viewed"
    /// Its signed archive was downloaded through its public link.
    case downloaded
    /// The first device registered for it (a pass on two devices is installed once).
    case installed
    /// Another device registered for it while it was on one already (with ``installed``: every device added).
    case registered
    /// A device deleted its registration for it (with ``tokenDead``: every device lost; the last one also records
    /// ``removed``).
    case unregistered
    /// Its last device left (its registration was deleted, or its push token died).
    case removed
    /// A new version was stored.
    case updated
    /// A device fetched its latest version (``PassEvent/changeAt`` is when that version was made).
    case fetched
    /// A push for its pass type failed and will be retried (no serial: pushes are per pass type).
    case pushFailed = "push.failed"
    /// APNs said a device's push token is gone: the device's registration for this pass went with it.
    case tokenDead = "token.dead"
    /// Google Wallet said a user saved the pass's Google object (a verified save callback).
    case googleSaved = "google.saved"
    /// Google Wallet said a user deleted the pass's Google object (a verified delete callback).
    case googleRemoved = "google.removed"
}

/// One recorded event. It never holds a device library identifier or a push token: devices are named by a salted
/// hash (``deviceHash``), the salt kept in the store and made once.
public struct PassEvent: Sendable, Equatable {
    public var kind: PassEventKind
    public var passTypeIdentifier: String
    /// Empty for ``PassEventKind/pushFailed``.
    public var serialNumber: String
    /// The template the pass was issued from; empty when the event names no pass.
    public var template: String
    /// When it happened (milliseconds are kept).
    public var at: Date
    /// HMAC-SHA256 of the device library identifier under the store's salt (hex, 32 digits), for device events.
    public var deviceHash: String?
    /// For ``PassEventKind/fetched``: when the version fetched was made (its `Last-Modified`).
    public var changeAt: Date?

    public init(
        kind: PassEventKind, passTypeIdentifier: String, serialNumber: String, template: String, at: Date, deviceHash: String? = nil,
        changeAt: Date? = nil
    ) {
        self.kind = kind
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.template = template
        self.at = at
        self.deviceHash = deviceHash
        self.changeAt = changeAt
    }
}
