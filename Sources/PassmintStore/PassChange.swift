/// A pass after a ``PassEdit``, and the devices registered for it when the change committed (read in the same
/// transaction: the devices to tell about it).
public struct PassChange: Sendable, Equatable {
    /// The pass as stored now.
    public var pass: StoredPass
    /// False when the edit left the pass as it was (a second sign-up): its tag did not move.
    public var changed: Bool
    public var registrations: [DeviceRegistration]

    public init(pass: StoredPass, changed: Bool, registrations: [DeviceRegistration]) {
        self.pass = pass
        self.changed = changed
        self.registrations = registrations
    }
}
