public import Foundation

/// A save/delete callback Google Wallet sent and ``GoogleCallbackVerifier`` verified: a user saved (`save`) or
/// deleted (`del`) an object of a class whose `callbackOptions.url` names this service.
public struct GoogleCallback: Sendable, Equatable {
    /// What the user did.
    public enum Event: String, Sendable {
        case save
        case del
    }

    public var classID: String
    public var objectID: String
    public var event: Event
    /// Unique per callback: Google sends the same nonce again when it retries.
    public var nonce: String
    /// The message's expiry (`expTimeMillis`).
    public var expiration: Date

    public init(classID: String, objectID: String, event: Event, nonce: String, expiration: Date) {
        self.classID = classID
        self.objectID = objectID
        self.event = event
        self.nonce = nonce
        self.expiration = expiration
    }
}
