/// The tag this service answers a poll with (`lastUpdated`, `lastModified`) and reads back from the poll's
/// ``WalletWebService/Kind/sinceParameter``: the store's change counter, in decimal. To the protocol it is an opaque
/// string; this is Passmint's own reading of it, shared by the router and the devices' fast path.
package enum UpdateTag {
    /// The tag of a poll: nil when absent or empty; `.failure` when it is not a tag this service returned.
    package static func since(_ text: Substring?) -> Result<Int64?, Malformed> {
        guard let text, !text.isEmpty else { return .success(nil) }
        guard let value = Int64(text) else { return .failure(Malformed()) }
        return .success(value)
    }

    /// Not a tag this service returned.
    package struct Malformed: Error {}
}
