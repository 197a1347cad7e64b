/// A device registered for a pass.
public struct DeviceRegistration: Sendable, Equatable, Hashable {
    public var deviceLibraryIdentifier: String
    public var pushToken: String

    public init(deviceLibraryIdentifier: String, pushToken: String) {
        self.deviceLibraryIdentifier = deviceLibraryIdentifier
        self.pushToken = pushToken
    }
}
