public import Foundation

/// A change to a stored pass, applied by a store inside one write transaction
/// (``PassStore/change(passTypeIdentifier:serialNumber:_:basedOn:)``). What each edit does is decided here, once for both
/// backends.
public enum PassEdit: Sendable, Equatable {
    /// New data (a JSON object text) and/or voided flag; nil leaves that part as stored. `images` are the ones the new
    /// data names, stored in the same transaction (those present already are kept as they are). `templateVersion`: the
    /// template version the pass moves to with it (a publish with data); nil keeps its version.
    case update(dataJSON: String?, voided: Bool?, images: [StoredImage] = [], templateVersion: String? = nil)
    /// What the user gave when signing up for a personalizable pass. The first sign-up wins: a pass already
    /// personalized is left as it is, whatever it holds, so the caller compares.
    case personalize(personalizationJSON: String)
    /// A new version with the same data at the template version `templateVersion` (a publish moves its passes to the
    /// version it stored: ``PassStore/passKeys(template:after:limit:)``).
    case republish(templateVersion: String)
    /// Erasure of the pass's personal data (a GDPR request): its data becomes `{}`, its personalization goes, it is
    /// voided and marked erased (``StoredPass/erasedAt``). The row stays as a tombstone: the serial is never issued
    /// again, devices holding the pass fetch its voided version, and no later edit changes it.
    case erase

    /// The pass after the edit, or nil when the edit leaves it as it is (then it keeps its tag and date).
    ///
    /// With `basedOn` (the tag of the version the caller read and made the edit from) the edit is refused with
    /// ``PassStoreError/Code/stale`` when the pass moved on since: the caller reads it again and makes the edit anew,
    /// so that no change made in between is lost. An erased pass refuses updates and sign-ups
    /// (``PassStoreError/Code/erased``), leaves a republish and a second erasure without a new version; `now` is the
    /// time an erasure records.
    public func applied(to pass: StoredPass, basedOn: Int64? = nil, now: Date = Date()) throws(PassStoreError) -> StoredPass? {
        if let erasedAt = pass.erasedAt {
            switch self {
            case .erase, .republish: return nil
            case .update, .personalize:
                throw PassStoreError(
                    .erased, "pass \(pass.passTypeIdentifier) / \(pass.serialNumber) was erased at \(erasedAt); it takes no change",
                    passKey: PassKey(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber))
            }
        }
        if let basedOn, pass.updateTag != basedOn {
            throw PassStoreError(
                .stale,
                "pass \(pass.passTypeIdentifier) / \(pass.serialNumber) changed (tag \(pass.updateTag)) since version \(basedOn) was read; "
                    + "read it again and redo the change")
        }
        var edited = pass
        switch self {
        case .update(let dataJSON, let voided, _, let templateVersion):
            if let dataJSON { edited.dataJSON = dataJSON }
            if let voided { edited.voided = voided }
            if let templateVersion { edited.templateVersion = templateVersion }
            if edited == pass { return nil }  // the same data again: no new version, no push
        case .personalize(let personalizationJSON):
            guard pass.personalizationJSON == nil else { return nil }
            edited.personalizationJSON = personalizationJSON
        case .republish(let templateVersion): edited.templateVersion = templateVersion
        case .erase:
            edited.dataJSON = "{}"
            edited.personalizationJSON = nil
            edited.voided = true
            edited.erasedAt = Date(timeIntervalSince1970: (now.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
        }
        return edited
    }

    /// The images to store with the edit, in its transaction (before the pass that names them).
    public var images: [StoredImage] {
        if case .update(_, _, let images, _) = self { return images }
        return []
    }
}
