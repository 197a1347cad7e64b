import Foundation
import Passmint
package import PassmintStore

/// What the device endpoints need of a stored pass, shared by reference from the read cache.
package final class DevicePassView: Sendable {
    package let pass: StoredPass
    /// `StoredPass.updatedAt` as an HTTP-date, the `Last-Modified` value.
    package let lastModified: String

    init(_ pass: StoredPass) {
        self.pass = pass
        self.lastModified = HTTPDate.string(pass.updatedAt)
    }
}

/// A pass row as the device endpoints looked it up: the pass, or no pass with that serial (also kept in the read
/// cache, so a device polling an unknown serial does not reach the store each time).
enum DevicePassLookup: Sendable {
    case found(DevicePassView)
    case missing

    var view: DevicePassView? {
        if case .found(let view) = self { return view }
        return nil
    }
}
