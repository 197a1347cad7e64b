/// A change to a stored pass, applied by a store inside one write transaction
/// (``PassStore/change(passTypeIdentifier:serialNumber:_:basedOn:)``). What each edit does is decided here, once for both
/// backends.
public enum PassEdit: Sendable, Equatable {
    /// New data (a JSON object text) and/or voided flag; nil leaves that part as stored. `images` are the ones the new
    /// data names, stored in the same transaction (those present already are kept as they are).
    case update(dataJSON: String?, voided: Bool?, images: [StoredImage] = [])
    /// What the user gave when signing up for a personalizable pass. The first sign-up wins: a pass already
    /// personalized is left as it is, whatever it holds, so the caller compares.
    case personalize(personalizationJSON: String)
    /// A new version with the same data: its template changed (``PassStore/passKeys(template:after:limit:)``).
    case republish

    /// The pass after the edit, or nil when the edit leaves it as it is (then it keeps its tag and date).
    ///
    /// With `basedOn` (the tag of the version the caller read and made the edit from) the edit is refused with
    /// ``PassStoreError/Kind/stale`` when the pass moved on since: the caller reads it again and makes the edit anew,
    /// so that no change made in between is lost.
    public func applied(to pass: StoredPass, basedOn: Int64? = nil) throws(PassStoreError) -> StoredPass? {
        if let basedOn, pass.updateTag != basedOn {
            throw PassStoreError(
                .stale,
                "pass \(pass.passTypeIdentifier) / \(pass.serialNumber) changed (tag \(pass.updateTag)) since version \(basedOn) was read; "
                    + "read it again and redo the change")
        }
        var edited = pass
        switch self {
        case .update(let dataJSON, let voided, _):
            if let dataJSON { edited.dataJSON = dataJSON }
            if let voided { edited.voided = voided }
        case .personalize(let personalizationJSON):
            guard pass.personalizationJSON == nil else { return nil }
            edited.personalizationJSON = personalizationJSON
        case .republish: break
        }
        return edited
    }

    /// The images to store with the edit, in its transaction (before the pass that names them).
    public var images: [StoredImage] {
        if case .update(_, _, let images) = self { return images }
        return []
    }
}
