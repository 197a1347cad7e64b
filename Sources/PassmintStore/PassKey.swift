/// A pass's identity in the store: its pass type and serial number.
public struct PassKey: Sendable, Hashable, Comparable {
    public var passTypeIdentifier: String
    public var serialNumber: String

    public init(passTypeIdentifier: String, serialNumber: String) {
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
    }

    public static func < (lhs: PassKey, rhs: PassKey) -> Bool {
        (lhs.passTypeIdentifier, lhs.serialNumber) < (rhs.passTypeIdentifier, rhs.serialNumber)
    }
}
