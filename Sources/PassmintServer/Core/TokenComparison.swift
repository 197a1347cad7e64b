/// Constant-time comparison of a presented secret (a pass's authentication token, the API key) with the expected
/// one: the time depends only on the lengths, never on where the two differ.
enum TokenComparison {
    static func matches(_ presented: String, _ expected: String) -> Bool {
        var presented = presented
        var expected = expected
        return presented.withUTF8 { a in
            expected.withUTF8 { b in
                var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
                for index in 0..<max(a.count, b.count) {
                    difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0xFF)
                }
                return difference == 0 && !a.isEmpty
            }
        }
    }
}
