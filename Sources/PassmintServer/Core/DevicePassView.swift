import Foundation
public import PassmintStore

/// What the device endpoints need of a stored pass, shared by reference from the read cache.
public final class DevicePassView: Sendable {
    public let pass: StoredPass
    /// `StoredPass.updatedAt` as an HTTP-date, the `Last-Modified` value.
    public let lastModified: String

    init(_ pass: StoredPass) {
        self.pass = pass
        self.lastModified = HTTPDate.string(pass.updatedAt)
    }
}
