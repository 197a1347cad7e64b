/// Where the push to one device registered for a pass stands.
public struct DevicePushState: Sendable, Equatable {
    public var deviceLibraryIdentifier: String
    /// A push is owed (not yet delivered) for this device and the pass's type.
    public var pending: Bool
    /// The last attempt's outcome as JSON text; nil before the first.
    public var lastResultJSON: String?

    public init(deviceLibraryIdentifier: String, pending: Bool, lastResultJSON: String?) {
        self.deviceLibraryIdentifier = deviceLibraryIdentifier
        self.pending = pending
        self.lastResultJSON = lastResultJSON
    }
}
