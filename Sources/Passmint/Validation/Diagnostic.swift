/// One finding about a pass: what is wrong, where, and how to fix it.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Comparable {
        case error, warning
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .error && rhs == .warning }
    }

    public var severity: Severity
    /// A stable identifier such as `field-key-duplicate`, safe to match in scripts.
    public var code: String
    /// The file the finding is about (`pass.json`, `icon@2x.png`, …).
    public var file: String
    /// JSON path inside the file, e.g. `storeCard.secondaryFields[2].key`; empty for a whole file.
    public var path: String
    public var message: String
    /// What to do about it.
    public var fix: String
    /// The data value the finding is about, when the pass was made from a template: the placeholder whose value is
    /// at ``path`` (or, for a finding about a field's other keys, in the field's value). Nil when no placeholder is.
    public var placeholder: String?

    public init(_ severity: Severity, _ code: String, file: String = "pass.json", path: String, _ message: String, fix: String) {
        self.severity = severity
        self.code = code
        self.file = file
        self.path = path
        self.message = message
        self.fix = fix
    }

    public var description: String {
        let location = path.isEmpty ? file : "\(file) \(path)"
        return "\(severity): [\(code)] \(location): \(message). Fix: \(fix)"
    }
}
