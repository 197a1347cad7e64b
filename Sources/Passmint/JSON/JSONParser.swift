/// A strict RFC 8259 parser over UTF-8 bytes that reports line and column, keeps member order and number
/// literals, and can tolerate trailing commas (which Wallet itself accepts in Apple's own sample passes).
public struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private let options: Options
    private var trailingCommaOffsets: [Int] = []
    private var depth = 0
    private static let maxDepth = 512

    private init(bytes: [UInt8], options: Options) {
        self.bytes = bytes
        self.options = options
    }

    /// Parses a complete JSON document.
    public static func parse(_ bytes: some Collection<UInt8>, options: Options = .init()) throws(JSONSyntaxError) -> Result {
        var parser = JSONParser(bytes: Array(bytes), options: options)
        // A UTF-8 byte order mark is tolerated, as Foundation's parser does.
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        let value = try parser.parseDocument()
        let commas = parser.trailingCommaOffsets.map { parser.position(of: $0) }
        return Result(value: value, trailingCommas: commas.map { (line: $0.line, column: $0.column) })
    }

    /// Parses a complete JSON document and returns only its value.
    public static func value(_ bytes: some Collection<UInt8>, options: Options = .init()) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes, options: options).value
    }

    private mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw error("unexpected \(describe(bytes[index])) after the end of the JSON value") }
        return value
    }

    private func position(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes[0..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    private func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let (line, column) = position(of: offset ?? index)
        return JSONSyntaxError(message: message, line: line, column: column)
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describe(bytes[index])), expected a value")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = index
        let utf8 = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for expected in utf8 {
            guard index < bytes.count, bytes[index] == expected else {
                throw error("invalid literal, expected '\(literal)'", at: start)
            }
            index += 1
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maxDepth { throw error("nesting deeper than \(Self.maxDepth) levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an object") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a member name in double quotes, found \(describe(bytes[index]))")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after the member name \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            object[key] = try parseValue()
            if try ended(by: "}", in: "an object", after: "after the value of \"\(key)\"") { return .object(object) }
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            array.append(try parseValue())
            if try ended(by: "]", in: "an array", after: "in an array") { return .array(array) }
        }
    }

    /// After a member or an element: consumes `close` and says true when it ends the container, or consumes the comma
    /// and says false when another value follows. A comma right before `close` is a trailing comma (tolerated only
    /// when the options allow it). `container` and `place` word the errors.
    private mutating func ended(by close: Unicode.Scalar, in container: String, after place: @autoclosure () -> String)
        throws(JSONSyntaxError) -> Bool
    {
        let closing = UInt8(ascii: close)
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of input inside \(container)") }
        if bytes[index] == closing {
            index += 1
            return true
        }
        guard bytes[index] == UInt8(ascii: ",") else {
            throw error("expected ',' or '\(close)' \(place()), found \(describe(bytes[index]))")
        }
        let comma = index
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == closing else { return false }
        guard options.allowTrailingCommas else { throw error("trailing comma before '\(close)'", at: comma) }
        trailingCommaOffsets.append(comma)
        index += 1
        return true
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            var count = 0
            while parser.index < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index]) {
                parser.index += 1
                count += 1
            }
            return count
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("incomplete number", at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits(&self) == 0 {
            throw error("invalid number", at: start)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits(&self) == 0 { throw error("expected digits after the decimal point", at: start) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            if digits(&self) == 0 { throw error("expected digits in the exponent", at: start) }
        }
        return JSONNumber(literal: String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        var runStart = index
        var result: [UInt8] = []
        var hasEscapes = false
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let raw: ArraySlice<UInt8>
                if hasEscapes {
                    result.append(contentsOf: bytes[runStart..<index])
                    raw = result[...]
                } else {
                    raw = bytes[runStart..<index]
                }
                index += 1
                guard let string = String(validating: raw, as: UTF8.self) else {
                    throw error("string is not valid UTF-8", at: start)
                }
                return string
            }
            if byte < 0x20 { throw error("control character \(describe(byte)) inside a string; escape it") }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                result.append(contentsOf: bytes[runStart..<index])
                index += 1
                guard index < bytes.count else { throw error("unterminated escape sequence") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): result.append(0x22)
                case UInt8(ascii: "\\"): result.append(0x5C)
                case UInt8(ascii: "/"): result.append(0x2F)
                case UInt8(ascii: "b"): result.append(0x08)
                case UInt8(ascii: "f"): result.append(0x0C)
                case UInt8(ascii: "n"): result.append(0x0A)
                case UInt8(ascii: "r"): result.append(0x0D)
                case UInt8(ascii: "t"): result.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired UTF-16 surrogate in \\u escape")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid UTF-16 surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("unpaired UTF-16 surrogate in \\u escape")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                    result.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw error("invalid escape sequence '\\\(Character(Unicode.Scalar(escape)))'", at: index - 2)
                }
                runStart = index
                continue
            }
            index += 1
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
