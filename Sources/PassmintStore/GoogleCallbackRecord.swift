public import Foundation

/// A verified Google Wallet save/delete callback, as the store records it (``PassStore/recordGoogleCallback(_:)``).
public struct GoogleCallbackRecord: Sendable, Equatable {
    /// Google's nonce: a callback sent again (a retry) carries the same one and is recorded once.
    public var nonce: String
    /// The Google object it names (`{issuerId}.{suffix}`), as ``PassStore/noteGoogleObject(passTypeIdentifier:serialNumber:objectID:updateTag:)``
    /// noted it.
    public var objectID: String
    /// ``PassEventKind/googleSaved`` or ``PassEventKind/googleRemoved``.
    public var kind: PassEventKind
    /// When it arrived.
    public var at: Date

    public init(nonce: String, objectID: String, kind: PassEventKind, at: Date) {
        self.nonce = nonce
        self.objectID = objectID
        self.kind = kind
        self.at = at
    }
}

/// What became of a callback.
public enum GoogleCallbackOutcome: Sendable, Equatable {
    /// Its event was recorded for this pass.
    case recorded(PassKey)
    /// Its nonce was recorded before: nothing more was.
    case duplicate
    /// No pass has that Google object: nothing was recorded.
    case unknownObject
}
