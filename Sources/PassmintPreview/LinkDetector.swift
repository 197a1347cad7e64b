/// Finds what Wallet's data detectors make links in a back field's value, in time linear in its length (a regular
/// expression engine backtracks: a 60 KB value of letters took 33 s). It matches what these patterns would, leftmost
/// first and, at one position, in this order:
///
/// - web address: `https?://[^\s<>"']+[^\s<>"'.,;:!?)]`
/// - e-mail address: `[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`
/// - phone number: `\+[0-9][0-9 ()-]{5,}[0-9]`
///
/// Each of the value's scalars is looked at a bounded number of times: the runs each pattern can span are measured
/// once, from the right, before the scan; ``steps`` counts those looks (for tests).
struct LinkDetector {
    struct Kinds: OptionSet {
        let rawValue: Int
        static let web = Kinds(rawValue: 1)
        static let email = Kinds(rawValue: 2)
        static let phone = Kinds(rawValue: 4)
    }

    private let text: [Unicode.Scalar]
    /// Where the run of scalars of each class starting at an index ends (exclusive).
    private var webRunEnd: [Int]
    private var localRunEnd: [Int]
    private var domainRunEnd: [Int]
    private var phoneRunEnd: [Int]
    private var letterRunEnd: [Int]
    /// The last index of the run starting here that may end a web address (not `.,;:!?)`), or -1.
    private var lastWebEnd: [Int]
    /// The last digit of the phone run starting here, or -1.
    private var lastDigit: [Int]
    /// The last `.` of the domain run starting here that two letters follow, or -1.
    private var lastDot: [Int]
    /// How many times a scalar was looked at.
    private(set) var steps = 0

    init(_ text: [Unicode.Scalar]) {
        self.text = text
        let count = text.count
        webRunEnd = Array(repeating: count, count: count + 1)
        localRunEnd = webRunEnd
        domainRunEnd = webRunEnd
        phoneRunEnd = webRunEnd
        letterRunEnd = webRunEnd
        lastWebEnd = Array(repeating: -1, count: count + 1)
        lastDigit = lastWebEnd
        lastDot = lastWebEnd
        for index in stride(from: count - 1, through: 0, by: -1) {
            steps += 1
            let scalar = text[index]
            let next = index + 1
            let isLetter = Self.isASCIILetter(scalar)
            let isDigit = ("0"..."9").contains(scalar)
            letterRunEnd[index] = isLetter ? letterRunEnd[next] : index
            if Self.isWeb(scalar) {
                webRunEnd[index] = webRunEnd[next]
                lastWebEnd[index] = lastWebEnd[next] >= 0 ? lastWebEnd[next] : (Self.endsWeb(scalar) ? index : -1)
            } else {
                webRunEnd[index] = index
            }
            localRunEnd[index] = isLetter || isDigit || "._%+-".unicodeScalars.contains(scalar) ? localRunEnd[next] : index
            if isLetter || isDigit || scalar == "." || scalar == "-" {
                domainRunEnd[index] = domainRunEnd[next]
                let dotHere = scalar == "." && letterRunEnd[next] - next >= 2
                lastDot[index] = lastDot[next] >= 0 ? lastDot[next] : (dotHere ? index : -1)
            } else {
                domainRunEnd[index] = index
            }
            if isDigit || " ()-".unicodeScalars.contains(scalar) {
                phoneRunEnd[index] = phoneRunEnd[next]
                lastDigit[index] = lastDigit[next] >= 0 ? lastDigit[next] : (isDigit ? index : -1)
            } else {
                phoneRunEnd[index] = index
            }
        }
    }

    /// The ranges (in scalars) to make links, in order, not overlapping.
    mutating func matches(_ kinds: Kinds) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var index = 0
        while index < text.count {
            steps += 1
            var end: Int?
            if kinds.contains(.web) { end = web(at: index) }
            if end == nil, kinds.contains(.email) { end = email(at: index) }
            if end == nil, kinds.contains(.phone) { end = phone(at: index) }
            if let end {
                found.append(index..<end)
                index = end
            } else {
                index += 1
            }
        }
        return found
    }

    /// The end of a web address starting at `index`.
    private mutating func web(at index: Int) -> Int? {
        guard text[index] == "h" else { return nil }
        var start = -1
        for prefix in ["https://", "http://"] where start < 0 && has(prefix, at: index) { start = index + prefix.unicodeScalars.count }
        // At least one scalar of the run, then one that may end an address.
        guard start >= 0, start + 1 < text.count, webRunEnd[start] > start + 1 else { return nil }
        let last = lastWebEnd[start + 1]
        return last >= 0 ? last + 1 : nil
    }

    /// The end of an e-mail address starting at `index`: the local part's run, `@`, then the domain's run up to its
    /// last `.` followed by two letters or more, and those letters.
    private func email(at index: Int) -> Int? {
        let at = localRunEnd[index]
        guard at > index, at < text.count, text[at] == "@" else { return nil }
        let domain = at + 1
        guard domain < text.count, domainRunEnd[domain] > domain else { return nil }
        let dot = lastDot[domain]
        guard dot > domain else { return nil }
        return letterRunEnd[dot + 1]
    }

    /// The end of a phone number starting at `index`: `+`, a digit, five or more of `0-9 ()-`, then a digit.
    private func phone(at index: Int) -> Int? {
        guard text[index] == "+", index + 1 < text.count, ("0"..."9").contains(text[index + 1]), index + 2 < text.count else { return nil }
        let last = lastDigit[index + 2]
        return last >= index + 7 ? last + 1 : nil
    }

    private mutating func has(_ prefix: String, at index: Int) -> Bool {
        var position = index
        for scalar in prefix.unicodeScalars {
            steps += 1
            guard position < text.count, text[position] == scalar else { return false }
            position += 1
        }
        return true
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }

    /// `[^\s<>"']`
    private static func isWeb(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.properties.isWhitespace && !"<>\"'".unicodeScalars.contains(scalar)
    }

    /// `[^\s<>"'.,;:!?)]`
    private static func endsWeb(_ scalar: Unicode.Scalar) -> Bool { isWeb(scalar) && !".,;:!?)".unicodeScalars.contains(scalar) }
}
