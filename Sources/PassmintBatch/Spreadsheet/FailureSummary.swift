import Passmint

/// The failed rows of a run grouped by reason, for the end of its output: "2 rows: Punkte is not a number (rows 42,
/// 99)". Keeps a count and the first rows of each reason, so memory does not grow with the rows.
public struct FailureSummary: Sendable, Equatable {
    public struct Group: Sendable, Equatable {
        public var reason: String
        public var count: Int
        /// The first rows with this reason, in the order they were added.
        public var rows: [Int]
    }

    /// Rows kept per reason.
    public static let rowsShown = 5
    /// Reasons kept; the rest are counted together.
    public static let reasonsKept = 50

    public private(set) var groups: [Group] = []
    public private(set) var otherCount = 0

    public init() {}

    public var count: Int { groups.reduce(otherCount) { $0 + $1.count } }

    public mutating func add(row: Int, reason: String) {
        if let index = groups.firstIndex(where: { $0.reason == reason }) {
            groups[index].count += 1
            if groups[index].rows.count < Self.rowsShown { groups[index].rows.append(row) }
        } else if groups.count < Self.reasonsKept {
            groups.append(Group(reason: reason, count: 1, rows: [row]))
        } else {
            otherCount += 1
        }
    }

    /// One line per reason, the most frequent first: "2 rows: Punkte is not a number (rows 42, 99)".
    public var lines: [String] {
        var lines = groups.enumerated().sorted { ($1.element.count, $0.offset) < ($0.element.count, $1.offset) }.map { _, group in
            let rows = group.rows.map(String.init).joined(separator: ", ") + (group.count > group.rows.count ? ", …" : "")
            return "\(group.count) row\(group.count == 1 ? "" : "s"): \(group.reason) (row\(group.rows.count == 1 ? "" : "s") \(rows))"
        }
        if otherCount > 0 { lines.append("\(otherCount) row\(otherCount == 1 ? "" : "s") for other reasons") }
        return lines
    }

    /// The reason of a message that starts with its row ("row 3 (line 4): …", "row 3, …", "row 3: …"): the rest.
    public static func reason(of message: String) -> String {
        guard message.hasPrefix("row ") else { return message }
        var rest = message.dropFirst(4).drop { $0.isNumber }
        if rest.hasPrefix(" (line ") { rest = rest.dropFirst(7).drop { $0.isNumber }.dropFirst() }
        if rest.hasPrefix(": ") { return String(rest.dropFirst(2)) }
        if rest.hasPrefix(", ") { return String(rest.dropFirst(2)) }
        return message
    }
}
