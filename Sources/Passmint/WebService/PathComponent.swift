/// The rule for the path components of Apple's protocol (device library identifier, pass type identifier, serial
/// number) and for push tokens: 1–128 characters of letters, digits and `. _ - : ~`. Nothing in such a text needs
/// escaping in a URL path or a JSON string. (Passmint's rule: the protocol itself sets none.)
package enum PathComponent {
    package static func isValid(_ text: Substring) -> Bool {
        guard (1...128).contains(text.utf8.count) else { return false }
        return text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "~"):
                true
            default: false
            }
        }
    }

    package static func isValid(_ text: String) -> Bool { isValid(Substring(text)) }
}
