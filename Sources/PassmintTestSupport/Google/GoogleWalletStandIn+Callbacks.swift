public import Foundation
import Passmint
import Synchronization

extension GoogleWalletStandIn {
    /// A callback as Google sends it when a user saves (`save`) or deletes (`del`) the stored object `objectID`: the
    /// URL is the `callbackOptions.url` of the object's stored class (nil when the class has none, or the object or
    /// class is not stored), the body signed by `signer` for the stand-in's issuer (or `recipientID`).
    public func callback(
        objectID: String, eventType: String, signer: GoogleCallbackSigner, nonce: String = UUID().uuidString, expiration: Date,
        recipientID: String? = nil, tamper: Bool = false
    ) throws -> (url: String, body: String)? {
        let found: (classCollection: String, classID: String)? = state.withLock { state in
            for (collection, objects) in state.resources where collection.hasSuffix("Object") {
                if let classID = objects[objectID]?["classId"]?.stringValue {
                    return (String(collection.dropLast("Object".count)) + "Class", classID)
                }
            }
            return nil
        }
        guard let found, let url = stored(found.classCollection, id: found.classID)?["callbackOptions"]?["url"]?.stringValue else {
            return nil
        }
        let message = GoogleCallbackSigner.Message(
            classID: found.classID, objectID: objectID, eventType: eventType, nonce: nonce, expiration: expiration)
        return (url, try signer.body(message, recipientID: recipientID ?? issuerID, tamper: tamper))
    }
}
