public import Passmint
public import PassmintStore

/// What the issuing API says about a pass or an order (a document of the same store, ``WalletWebService/Kind``): the
/// document as stored, how many devices follow it, the pushes the request owed them, or where each device's push
/// stands.
public struct PassMetadata: Sendable {
    public var pass: StoredPass
    /// The pass's data when the service has it parsed already; nil to read `StoredPass.dataJSON`.
    public var data: JSONObject?
    public var registrations: Int
    /// Devices (distinct push tokens) this request's change owes a push; nil when it made no change.
    public var queuedPushes: Int? = nil
    /// Where the push stands for each registered device (a lookup).
    public var pushes: [DevicePushState]? = nil
    /// Where its Google Wallet object stands (a lookup, when the service issues for Google and a link was made).
    public var google: GoogleObjectState? = nil
    /// For an update: false when it changed nothing (then nothing was pushed).
    public var changed: Bool?
}
