/// A change to a stored pass, applied by a store inside one write transaction
/// (``PassStore/change(passTypeIdentifier:serialNumber:_:)``). What each edit does is decided here, once for both backends.
public enum PassEdit: Sendable, Equatable {
    /// New data (a JSON object text) and voided flag.
    case update(dataJSON: String, voided: Bool)
    /// What the user gave when signing up for a personalizable pass. The first sign-up wins: a pass already
    /// personalized is left as it is, whatever it holds, so the caller compares.
    case personalize(personalizationJSON: String)
    /// A new version with the same data: its template changed (``PassStore/passKeys(template:after:limit:)``).
    case republish

    /// The pass after the edit, or nil when the edit leaves it as it is (then it keeps its tag and date).
    public func applied(to pass: StoredPass) -> StoredPass? {
        var edited = pass
        switch self {
        case .update(let dataJSON, let voided):
            edited.dataJSON = dataJSON
            edited.voided = voided
        case .personalize(let personalizationJSON):
            guard pass.personalizationJSON == nil else { return nil }
            edited.personalizationJSON = personalizationJSON
        case .republish: break
        }
        return edited
    }
}
