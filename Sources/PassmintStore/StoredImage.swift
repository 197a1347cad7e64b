import Foundation

/// An image stored once for every pass that uses it (a member's photo, an event's artwork), addressed by the SHA-256
/// of its bytes. A pass's data names it as `"image:thumbnail@2x": "sha256:<hex>"`.
public struct StoredImage: Sendable, Equatable {
    /// Lowercase hex SHA-256 of ``bytes``.
    public var sha256: String
    public var bytes: [UInt8]

    public init(sha256: String, bytes: [UInt8]) {
        self.sha256 = sha256
        self.bytes = bytes
    }
}

extension StoredImage {
    /// The SHA-256s of the images a pass's data names (`"image:thumbnail@2x": "sha256:<64 hex>"`).
    public static func named(in dataJSON: String) -> [String] {
        var found: [String] = []
        var rest = Substring(dataJSON)
        while let range = rest.range(of: "sha256:") {
            let hex = rest[range.upperBound...].prefix(64)
            if hex.count == 64, hex.allSatisfy(\.isHexDigit) { found.append(String(hex)) }
            rest = rest[range.upperBound...]
        }
        return found
    }
}
