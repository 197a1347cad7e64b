public import Passmint
public import PassmintStore

/// What the issuing API says about a pass: the pass as stored, how many devices follow it, and the push the request
/// made (or, when it made none, the last one stored).
public struct PassMetadata: Sendable {
    public var pass: StoredPass
    /// The pass's data when the service has it parsed already; nil to read `StoredPass.dataJSON`.
    public var data: JSONObject?
    public var registrations: Int
    /// The push this request made; nil when it made none.
    public var push: PushSummary?
    /// For an update: false when it changed nothing (then nothing was pushed).
    public var changed: Bool?
}
