import Synchronization

/// The `pass.json` rules for many passes of one template, run only where a pass differs.
///
/// The memo lints a first pass rule by rule and records, for each rule, what it read at the top level of
/// `pass.json` (a key's value, or only whether the key is present). For a later pass, a rule whose every read gives
/// the same answer, byte for byte, would take the same path and find the same: its findings are reused. The other
/// rules run again. The findings are those of ``PassLinter/lintJSON(_:isTemplate:options:)``, in the same order,
/// with the same messages: a bad row fails as it would alone.
///
/// A pass is compared with the first one once, member by member; most members of a template's passes hold no
/// placeholder and share the template's storage, so they compare at once. Only the rules that read what the data
/// fills in run per pass.
final class LintMemo: Sendable {
    let options: LintOptions
    private let reference: JSONObject
    private let entries: [Entry]

    /// One rule: when it must run again, and what it found in the first pass.
    private struct Entry: Sendable {
        let rule: JSONRule
        /// False when the rule read every member: it runs for every pass.
        let reusable: Bool
        /// Positions of the first pass's members whose values the rule read: they must be identical.
        let sameValues: [Int]
        /// Positions of the first pass's members the rule only saw present: they must be present.
        let present: [Int]
        /// Keys the rule found absent: they must be absent.
        let absent: [String]
        let found: [Diagnostic]
    }

    init(reference: JSONObject, options: LintOptions) {
        self.options = options
        self.reference = reference
        var positions: [String: Int] = [:]
        for (index, member) in reference.members.enumerated() { positions[member.key] = index }
        var entries: [Entry] = []
        for rule in JSONRule.allCases {
            let recorder = RuleReads()
            var rules = JSONRules(pass: reference, isTemplate: false, options: options, recordingInto: recorder)
            rules.run(rule)
            var sameValues = Set<Int>()
            var present = Set<Int>()
            var absent = Set<String>()
            for read in recorder.reads {
                switch read {
                case .value(let key), .presence(let key):
                    guard let position = positions[key] else {
                        absent.insert(key)
                        continue
                    }
                    if case .value = read { sameValues.insert(position) } else { present.insert(position) }
                }
            }
            entries.append(
                Entry(
                    rule: rule, reusable: !recorder.readsEverything, sameValues: sameValues.sorted(),
                    present: present.subtracting(sameValues).sorted(), absent: absent.sorted(), found: rules.found))
        }
        self.entries = entries
    }

    /// The findings for the first pass.
    var referenceFindings: [Diagnostic] { entries.flatMap(\.found) }

    /// What ``PassLinter/lintJSON(_:isTemplate:options:)`` finds in `pass` with the memo's options.
    func lint(_ pass: JSONObject) -> [Diagnostic] {
        let comparison = Comparison(pass, with: reference)
        var found: [Diagnostic] = []
        for entry in entries {
            if comparison.allows(entry) {
                found += entry.found
            } else {
                var rules = JSONRules(pass: pass, isTemplate: false, options: options)
                rules.run(entry.rule)
                found += rules.found
            }
        }
        return found
    }

    /// The rules a pass needs to run again (for tests).
    func rulesToRun(for pass: JSONObject) -> [JSONRule] {
        let comparison = Comparison(pass, with: reference)
        return entries.filter { !comparison.allows($0) }.map(\.rule)
    }

    /// A pass against the first one, member by member.
    private struct Comparison {
        let pass: JSONObject
        /// For each member of the first pass: the pass holds an identical value at its key.
        var same: [Bool]
        /// For each member of the first pass: the pass has its key.
        var present: [Bool]
        /// The pass holds no key the first one lacks.
        var noOtherKeys: Bool

        init(_ pass: JSONObject, with reference: JSONObject) {
            self.pass = pass
            let theirs = reference.members
            let ours = pass.members
            if ours.count == theirs.count, zip(ours, theirs).allSatisfy({ JSONValue.sameBytes($0.key, $1.key) }) {
                // The usual case: the same keys in the same order.
                same = zip(ours, theirs).map { $0.value.isIdentical(to: $1.value) }
                present = Array(repeating: true, count: theirs.count)
                noOtherKeys = true
            } else {
                same = theirs.map { member in pass[member.key].map { $0.isIdentical(to: member.value) } ?? false }
                present = theirs.map { pass[$0.key] != nil }
                noOtherKeys = ours.allSatisfy { member in theirs.contains { JSONValue.sameBytes($0.key, member.key) } }
            }
        }

        func allows(_ entry: Entry) -> Bool {
            guard entry.reusable else { return false }
            return entry.sameValues.allSatisfy { same[$0] } && entry.present.allSatisfy { present[$0] }
                && (noOtherKeys || entry.absent.allSatisfy { pass[$0] == nil })
        }
    }
}

/// A template's ``LintMemo``, made from the first pass linted with it and shared by every thread.
final class LintMemoSlot: Sendable {
    private let memo = Mutex<LintMemo?>(nil)

    init() {}

    /// What ``PassLinter/lintJSON(_:isTemplate:options:)`` finds in `pass`, from the memo when it was made with the
    /// same options.
    func lint(_ pass: JSONObject, options: LintOptions) -> [Diagnostic] {
        if let memo = memo.withLock({ $0 }), memo.options == options { return memo.lint(pass) }
        let made = LintMemo(reference: pass, options: options)
        memo.withLock { $0 = made }
        return made.referenceFindings
    }
}
