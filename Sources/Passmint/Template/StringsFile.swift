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

    /// Why a `.strings` file could not be read: the file (when known), the line, and what is wrong there.
    public struct SyntaxError: CodedError {
        public var code: PassmintError.Code { .invalidTemplate }
        /// What is wrong, e.g. `expected ';' after the value of "POINTS"`.
        public var message: String
        /// The line (from 1) where the problem is, or where the unterminated string or comment starts.
        public var line: Int
        /// The file, as given to ``StringsFile/parse(_:file:)``.
        public var file: String?
        public var description: String { (file.map { "\($0), " } ?? "") + "line \(line): \(message)" }
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
                units.append(
                    littleEndian
                        ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8 : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
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

    /// Parses a `.strings` file: `"key" = "value";` entries, `/* */` and `//` comments, the escapes `\n \t \r \" \\`
    /// and `\UXXXX` (a UTF-16 code unit; two of them for a surrogate pair).
    ///
    /// - Parameters:
    ///   - bytes: the file's bytes, in UTF-8 or UTF-16 with a byte-order mark (see ``decode(_:)``).
    ///   - file: names the file in errors, e.g. `Festival.pass/fr.lproj/pass.strings`.
    /// - Throws: ``SyntaxError`` with the file, the line and what to fix.
    public static func parse(_ bytes: [UInt8], file: String? = nil) throws(SyntaxError) -> [Entry] {
        do {
            return try parseText(bytes)
        } catch {
            var located = error
            located.file = file
            throw located
        }
    }

    private static func parseText(_ bytes: [UInt8]) throws(SyntaxError) -> [Entry] {
        guard let text = decode(bytes) else {
            throw SyntaxError(message: "the file is neither UTF-8 nor UTF-16 with a byte order mark: save it as UTF-16 or UTF-8", line: 1)
        }
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
                    guard index + 1 < scalars.count else {
                        throw SyntaxError(message: "the /* comment that starts here is never closed with */", line: start)
                    }
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
                throw SyntaxError(message: "expected a key or value in double quotes, as in \"POINTS\" = \"Points\";", line: line)
            }
            index += 1
            let start = line
            var result = String.UnicodeScalarView()
            while true {
                guard index < scalars.count else {
                    throw SyntaxError(message: "the string that starts here has no closing double quote", line: start)
                }
                let scalar = scalars[index]
                index += 1
                if scalar == "\"" { return String(result) }
                if scalar == "\n" { line += 1 }
                if scalar == "\\" {
                    guard index < scalars.count else { throw SyntaxError(message: "the file ends after a backslash", line: line) }
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
                        guard count == 4 else { throw SyntaxError(message: "\\U needs four hex digits, e.g. \\U00E9", line: line) }
                        if (0xD800...0xDBFF).contains(value), index + 5 < scalars.count, scalars[index] == "\\",
                            scalars[index + 1] == "U" || scalars[index + 1] == "u"
                        {
                            let hex = String(String.UnicodeScalarView(scalars[(index + 2)..<(index + 6)]))
                            if let low = UInt32(hex, radix: 16), (0xDC00...0xDFFF).contains(low) {
                                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                                index += 6
                            }
                        }
                        guard let unicode = Unicode.Scalar(value) else {
                            throw SyntaxError(
                                message:
                                    "\\U\(String(value, radix: 16, uppercase: true)) is half of a surrogate pair: write both halves (\\UD83C\\UDF3F) or the character itself",
                                line: line)
                        }
                        result.append(unicode)
                    default:
                        result.append(escape)
                    }
                } else {
                    result.append(scalar)
                }
            }
        }

        /// Skips to `mark` and past it; otherwise the error, at the line of what came before it.
        func expect(_ mark: Unicode.Scalar, after itsLine: Int, _ message: @autoclosure () -> String) throws(SyntaxError) {
            try skipSpaceAndComments()
            guard index < scalars.count, scalars[index] == mark else { throw SyntaxError(message: message(), line: itsLine) }
            index += 1
        }

        while true {
            try skipSpaceAndComments()
            guard index < scalars.count else { return entries }
            let key = try quoted()
            try expect("=", after: line, "expected '=' after \"\(key)\": write \"\(key)\" = \"…\";")
            try skipSpaceAndComments()
            let value = try quoted()
            try expect(";", after: line, "expected ';' after the value of \"\(key)\": end every entry with a semicolon")
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
        return utf16LittleEndianWithBOM(text)
    }

    /// `text` as UTF-16 little-endian with a byte order mark, the encoding Passmint writes.
    public static func utf16LittleEndianWithBOM(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xFE]
        bytes.reserveCapacity(2 + text.utf16.count * 2)
        for unit in text.utf16 {
            bytes.append(UInt8(unit & 0xFF))
            bytes.append(UInt8(unit >> 8))
        }
        return bytes
    }

    /// Whether `bytes` start with the UTF-16 little-endian byte order mark.
    public static func isUTF16LittleEndianWithBOM(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0xFF, 0xFE]) }

    /// A readable `.strings` file in UTF-16 little-endian with a BOM, its text (comments and layout included) unchanged:
    /// UTF-8 (with or without a BOM) and UTF-16 big-endian files are transcoded, UTF-16 LE files returned as they are.
    ///
    /// - Throws: ``SyntaxError`` (naming `file` and the line) when the file cannot be read.
    public static func utf16LittleEndian(_ bytes: [UInt8], file: String? = nil) throws(SyntaxError) -> [UInt8] {
        _ = try parse(bytes, file: file)
        if isUTF16LittleEndianWithBOM(bytes) { return bytes }
        // parse succeeded, so the bytes decode.
        return utf16LittleEndianWithBOM(decode(bytes) ?? "")
    }
}
