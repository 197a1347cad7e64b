/// Walks BER/DER tag-length-value structure far enough to tell strict DER from BER with indefinite lengths.
enum DERScanner {
    enum Encoding: String, Sendable {
        case der = "DER"
        /// BER with at least one indefinite length (as Apple's 2014 sample passes have).
        case berIndefinite = "BER (indefinite lengths)"
        case malformed
    }

    static func encoding(of bytes: [UInt8]) -> Encoding {
        var indefinite = false
        var index = 0
        guard walk(bytes, &index, end: bytes.count, depth: 0, indefinite: &indefinite), index == bytes.count || indefinite else {
            return .malformed
        }
        return indefinite ? .berIndefinite : .der
    }

    /// Reads TLVs from `index` up to `end` (or up to an end-of-contents marker when `end` is nil-like).
    private static func walk(_ bytes: [UInt8], _ index: inout Int, end: Int, depth: Int, indefinite: inout Bool, untilEOC: Bool = false)
        -> Bool
    {
        guard depth < 64 else { return false }
        while index < end {
            if untilEOC, index + 1 < end, bytes[index] == 0, bytes[index + 1] == 0 {
                index += 2
                return true
            }
            let tag = bytes[index]
            index += 1
            if tag & 0x1F == 0x1F {  // high tag number
                while index < end, bytes[index] & 0x80 != 0 { index += 1 }
                index += 1
            }
            guard index < end else { return false }
            let first = bytes[index]
            index += 1
            let constructed = tag & 0x20 != 0
            if first == 0x80 {
                guard constructed else { return false }
                indefinite = true
                guard walk(bytes, &index, end: end, depth: depth + 1, indefinite: &indefinite, untilEOC: true) else { return false }
                continue
            }
            var length = 0
            if first & 0x80 == 0 {
                length = Int(first)
            } else {
                let count = Int(first & 0x7F)
                guard count <= 4, index + count <= end else { return false }
                for _ in 0..<count {
                    length = length << 8 | Int(bytes[index])
                    index += 1
                }
            }
            guard index + length <= end else { return false }
            if constructed {
                var inner = index
                guard walk(bytes, &inner, end: index + length, depth: depth + 1, indefinite: &indefinite), inner == index + length else {
                    return false
                }
            }
            index += length
        }
        return !untilEOC
    }
}
