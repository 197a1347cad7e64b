/// Errors of a store.
public struct PassStoreError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A pass with this pass type identifier and serial number already exists.
        case duplicate
        /// The pass changed since the version a change was made from (``PassEdit/applied(to:basedOn:)``).
        case stale
        /// The pass was erased (``PassEdit/erase``): it takes no change any more.
        case erased
        case database
    }
    public var kind: Kind
    public var message: String
    /// The pass concerned, when one is (the serial of an order that exists already).
    public var passKey: PassKey?

    public init(_ kind: Kind, _ message: String, passKey: PassKey? = nil) {
        self.kind = kind
        self.message = message
        self.passKey = passKey
    }

    public var description: String { message }
}
