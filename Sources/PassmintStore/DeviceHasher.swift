import Crypto
import Foundation
import Synchronization

/// Names devices in events without naming them: HMAC-SHA256 of the device library identifier under a salt the store
/// makes once (32 random bytes, kept in its `store_settings` table) and reads back, so the same device gets the same
/// hash on every node and after every restart, and nobody without the database can tell which device it was.
package final class DeviceHasher: Sendable {
    /// The salt's row in `store_settings`.
    package static let settingName = "device_salt"
    private let salt = Mutex<[UInt8]?>(nil)

    package init() {}

    /// A new salt: 32 bytes from the system's random generator, as hex.
    package static func newSalt() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in hex(UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// True once the salt is known.
    package var isLoaded: Bool { salt.withLock { $0 != nil } }

    /// Keeps the store's salt (hex, as ``newSalt()`` makes it).
    package func load(hexSalt: String) {
        var bytes: [UInt8] = []
        var index = hexSalt.startIndex
        while index < hexSalt.endIndex, let end = hexSalt.index(index, offsetBy: 2, limitedBy: hexSalt.endIndex) {
            if let byte = UInt8(hexSalt[index..<end], radix: 16) { bytes.append(byte) }
            index = end
        }
        salt.withLock { $0 = bytes }
    }

    /// The device's hash (32 hex digits); nil until the salt is loaded.
    package func hash(_ deviceLibraryIdentifier: String) -> String? {
        guard let key = salt.withLock({ $0 }) else { return nil }
        let code = HMAC<SHA256>.authenticationCode(for: Array(deviceLibraryIdentifier.utf8), using: SymmetricKey(data: key))
        return Array(code).prefix(16).map(Self.hex).joined()
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
    }
}
