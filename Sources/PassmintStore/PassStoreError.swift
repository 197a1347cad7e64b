/// Errors of a store. They follow Passmint's error convention (`CodedError`: a code to compare, a message that says
/// what, where and what to do) without naming it: this module links no part of the library.
public struct PassStoreError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Code: String, Sendable, CustomStringConvertible {
        /// A pass with this pass type identifier and serial number already exists.
        case duplicate
        /// The pass changed since the version a change was made from (``PassEdit/applied(to:basedOn:)``).
        case stale
        /// The pass was erased (``PassEdit/erase``): it takes no change any more.
        case erased
        /// The database refused or could not be reached; the message says which and what to do.
        case database

        public var description: String { rawValue }
    }
    public var code: Code
    public var message: String
    /// The pass concerned, when one is (the serial of an order that exists already).
    public var passKey: PassKey?

    public init(_ code: Code, _ message: String, passKey: PassKey? = nil) {
        self.code = code
        self.message = message
        self.passKey = passKey
    }

    public var description: String { message }
}
