package import Passmint
package import PassmintStore

/// What the issuing API says about a pass or an order (a document of the same store, ``WalletWebService/Kind``): the
/// document as stored, how many devices follow it, the pushes the request owed them, or where each device's push
/// stands.
package struct PassMetadata: Sendable {
    package var pass: StoredPass
    /// The pass's data when the service has it parsed already; nil to read `StoredPass.dataJSON`.
    package var data: JSONObject?
    package var registrations: Int
    /// Devices (distinct push tokens) this request's change owes a push; nil when it made no change.
    package var queuedPushes: Int? = nil
    /// Where the push stands for each registered device (a lookup).
    package var pushes: [DevicePushState]? = nil
    /// Where its Google Wallet object stands (a lookup, when the service issues for Google and a link was made).
    package var google: GoogleObjectState? = nil
    /// For an update: false when it changed nothing (then nothing was pushed).
    package var changed: Bool?
}
