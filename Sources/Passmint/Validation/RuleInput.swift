/// `pass.json` as a lint rule sees it. Every top-level read can be recorded, so that the rule's findings can be
/// reused for another pass that holds the same at every key the rule read (``LintMemo``).
///
/// A rule reads `pass.json` only through this view. A rule is a function of what it reads (and of the lint options):
/// for a pass identical at those keys it takes the same path, reads the same keys and finds the same.
struct RuleInput {
    let object: JSONObject
    let recorder: RuleReads?

    init(_ object: JSONObject, recordingInto recorder: RuleReads? = nil) {
        self.object = object
        self.recorder = recorder
    }

    /// The value at a top-level key.
    subscript(key: String) -> JSONValue? {
        let value = object[key]
        recorder?.reads.append(.value(key))
        return value
    }

    /// Whether a top-level key is present, whatever its value.
    func contains(_ key: String) -> Bool {
        let present = object[key] != nil
        recorder?.reads.append(.presence(key))
        return present
    }

    /// Every member: a rule that reads these depends on the whole object.
    var members: JSONObject {
        recorder?.readsEverything = true
        return object
    }
}

/// What one rule read of `pass.json`, as it ran on one pass.
final class RuleReads {
    var reads: [RuleRead] = []
    var readsEverything = false
}

/// One top-level read: a key's value (absent or not), or only whether the key is present.
enum RuleRead: Sendable {
    case value(String)
    case presence(String)
}
