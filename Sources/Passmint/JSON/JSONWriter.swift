/// Serialises a ``JSONValue`` deterministically: members in their order, two-space indentation,
/// UTF-8 output with only the escapes JSON requires.
public enum JSONWriter {
    /// Output layout.
    public enum Style: Sendable {
        /// Two-space indented, one member per line.
        case pretty
        /// No whitespace at all.
        case compact
    }

    public static func data(_ value: JSONValue, style: Style = .pretty) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(2048)
        write(value, into: &output, style: style, indent: 0)
        if style == .pretty { output.append(0x0A) }
        return output
    }

    public static func string(_ value: JSONValue, style: Style = .pretty) -> String {
        String(decoding: data(value, style: style), as: UTF8.self)
    }

    private static func newline(_ output: inout [UInt8], indent: Int) {
        output.append(0x0A)
        output.append(contentsOf: repeatElement(0x20, count: indent * 2))
    }

    private static func write(_ value: JSONValue, into output: inout [UInt8], style: Style, indent: Int) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let bool): output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: number.text.utf8)
        case .string(let string): writeString(string, into: &output)
        case .array(let array):
            if array.isEmpty {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(UInt8(ascii: "["))
            for (offset, element) in array.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                if style == .pretty { newline(&output, indent: indent + 1) }
                write(element, into: &output, style: style, indent: indent + 1)
            }
            if style == .pretty { newline(&output, indent: indent) }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.count == 0 {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(UInt8(ascii: "{"))
            for (offset, member) in object.members.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                if style == .pretty { newline(&output, indent: indent + 1) }
                writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                if style == .pretty { output.append(0x20) }
                write(member.value, into: &output, style: style, indent: indent + 1)
            }
            if style == .pretty { newline(&output, indent: indent) }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20:
                output.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30])
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0xF)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
