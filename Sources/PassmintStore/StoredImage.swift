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
