/// What a bulk insert (``PassStore/insert(_:images:)``) did with one pass.
public enum BulkInsertOutcome: Sendable, Equatable {
    /// The pass is new and was stored.
    case inserted
    /// The serial was stored already (a resumed import) and was left as it is; its token, for the caller to compare.
    case existed(authenticationToken: String)
}
