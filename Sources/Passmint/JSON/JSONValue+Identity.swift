import Foundation

/// Byte-for-byte sameness of JSON values, for reusing work done on one value for another.
///
/// `==` compares strings as Swift does, by canonical equivalence: "é" written precomposed equals "e" followed by a
/// combining accent, although their UTF-8 differs in length. Work that depends on the bytes (a length limit, a
/// message quoting the value) may only be reused for a value that is identical, which this checks. Values sharing
/// their storage (the parts of a rendered `pass.json` that hold no placeholder share the template's) are recognised
/// without reading them.
extension JSONValue {
    func isIdentical(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): Self.sameBytes(a.text, b.text)
        case (.string(let a), .string(let b)): Self.sameBytes(a, b)
        case (.array(let a), .array(let b)): Self.sameElements(a, b)
        case (.object(let a), .object(let b)): a.isIdentical(to: b)
        default: false
        }
    }

    static func sameBytes(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        var a = a
        var b = b
        return a.withUTF8 { a in
            b.withUTF8 { b in
                a.baseAddress == b.baseAddress || a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
            }
        }
    }

    static func sameElements(_ a: [JSONValue], _ b: [JSONValue]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty || sameStorage(a, b) { return true }
        return zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
    }

    /// Whether two arrays are one buffer (copies that were never changed).
    static func sameStorage<Element>(_ a: [Element], _ b: [Element]) -> Bool {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count } }
    }
}

extension JSONObject {
    func isIdentical(to other: JSONObject) -> Bool {
        guard members.count == other.members.count else { return false }
        if members.isEmpty || JSONValue.sameStorage(members, other.members) { return true }
        return zip(members, other.members).allSatisfy { JSONValue.sameBytes($0.key, $1.key) && $0.value.isIdentical(to: $1.value) }
    }
}
