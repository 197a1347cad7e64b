/// Apple `.strings` files (`"key" = "value";` with `/* */` and `//` comments), as used by `<lang>.lproj/pass.strings`.
/// Reads UTF-8 or UTF-16 (with a byte order mark); writes UTF-16 little-endian with a BOM.
public enum StringsFile {
    /// One entry.
    public struct Entry: Sendable, Hashable {
        public var key: String
        public var value: String
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// Why a `.strings` file could not be read.
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var line: Int
        public var description: String { "line \(line): \(message)" }
    }

    /// Decodes the bytes to text: UTF-16 with a BOM (either byte order), UTF-8 with or without a BOM.
    public static func decode(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let littleEndian = bytes[0] == 0xFF
            guard bytes.count % 2 == 0 else { return nil }
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2 - 1)
            var index = 2
            while index + 1 < bytes.count {
                units.append(littleEndian ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8 : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                index += 2
            }
            var text = ""
            var iterator = units.makeIterator()
            var decoder = UTF16()
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
                case .emptyInput: break loop
                case .error: return nil
                }
            }
            return text
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        return String(validating: body, as: UTF8.self)
    }

    /// Parses a `.strings` file.
    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> [Entry] {
        guard let text = decode(bytes) else { throw SyntaxError(message: "not UTF-8 or UTF-16 with a byte order mark", line: 1) }
        let scalars = Array(text.unicodeScalars)
        var index = 0
        var line = 1
        var entries: [Entry] = []

        func skipSpaceAndComments() throws(SyntaxError) {
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "\n" {
                    line += 1
                    index += 1
                } else if scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\u{FEFF}" {
                    index += 1
                } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                    let start = line
                    index += 2
                    while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") {
                        if scalars[index] == "\n" { line += 1 }
                        index += 1
                    }
                    guard index + 1 < scalars.count else { throw SyntaxError(message: "unterminated /* comment", line: start) }
                    index += 2
                } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                    while index < scalars.count, scalars[index] != "\n" { index += 1 }
                } else {
                    return
                }
            }
        }

        func quoted() throws(SyntaxError) -> String {
            guard index < scalars.count, scalars[index] == "\"" else {
                throw SyntaxError(message: "expected a string in double quotes", line: line)
            }
            index += 1
            var result = String.UnicodeScalarView()
            while true {
                guard index < scalars.count else { throw SyntaxError(message: "unterminated string", line: line) }
                let scalar = scalars[index]
                index += 1
                if scalar == "\"" { return String(result) }
                if scalar == "\n" { line += 1 }
                if scalar == "\\" {
                    guard index < scalars.count else { throw SyntaxError(message: "unterminated escape", line: line) }
                    let escape = scalars[index]
                    index += 1
                    switch escape {
                    case "n": result.append("\n")
                    case "t": result.append("\t")
                    case "r": result.append("\r")
                    case "\"": result.append("\"")
                    case "\\": result.append("\\")
                    case "U", "u":
                        var value: UInt32 = 0
                        var count = 0
                        while count < 4, index < scalars.count, let digit = UInt32(String(scalars[index]), radix: 16) {
                            value = value << 4 | digit
                            index += 1
                            count += 1
                        }
                        guard count == 4 else { throw SyntaxError(message: "\\U needs four hex digits", line: line) }
                        if (0xD800...0xDBFF).contains(value), index + 5 < scalars.count, scalars[index] == "\\", scalars[index + 1] == "U" || scalars[index + 1] == "u" {
                            let hex = String(String.UnicodeScalarView(scalars[(index + 2)..<(index + 6)]))
                            if let low = UInt32(hex, radix: 16), (0xDC00...0xDFFF).contains(low) {
                                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                                index += 6
                            }
                        }
                        guard let unicode = Unicode.Scalar(value) else { throw SyntaxError(message: "invalid \\U escape", line: line) }
                        result.append(unicode)
                    default:
                        result.append(escape)
                    }
                } else {
                    result.append(scalar)
                }
            }
        }

        while true {
            try skipSpaceAndComments()
            guard index < scalars.count else { return entries }
            let key = try quoted()
            try skipSpaceAndComments()
            guard index < scalars.count, scalars[index] == "=" else {
                throw SyntaxError(message: "expected '=' after \"\(key)\"", line: line)
            }
            index += 1
            try skipSpaceAndComments()
            let value = try quoted()
            try skipSpaceAndComments()
            guard index < scalars.count, scalars[index] == ";" else {
                throw SyntaxError(message: "expected ';' after the value of \"\(key)\"", line: line)
            }
            index += 1
            entries.append(Entry(key: key, value: value))
        }
    }

    /// Writes entries as UTF-16 little-endian with a BOM, one `"key" = "value";` per line.
    public static func write(_ entries: [Entry]) -> [UInt8] {
        func escape(_ text: String) -> String {
            var output = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": output += "\\\""
                case "\\": output += "\\\\"
                case "\n": output += "\\n"
                case "\t": output += "\\t"
                case "\r": output += "\\r"
                default: output.unicodeScalars.append(scalar)
                }
            }
            return output
        }
        var text = ""
        for entry in entries { text += "\"\(escape(entry.key))\" = \"\(escape(entry.value))\";\n" }
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 {
            bytes.append(UInt8(unit & 0xFF))
            bytes.append(UInt8(unit >> 8))
        }
        return bytes
    }
}
