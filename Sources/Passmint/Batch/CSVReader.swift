import Foundation

/// A streaming RFC 4180 CSV reader: quoted fields with `""` escapes, commas and line breaks inside quotes, CRLF or
/// LF line ends, a UTF-8 byte order mark tolerated. Reads the file in blocks, so memory does not grow with its size.
public struct CSVReader {
    /// One record and the line it starts on.
    public struct Record: Sendable {
        public var fields: [String]
        public var line: Int
    }

    /// A record that cannot be read (its line, and why).
    public struct RecordError: Error, Sendable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    private var line = 1
    private var started = false

    public init(path: String) throws(PassmintError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw PassmintError(.fileSystem, "data file \(path) does not exist or cannot be read")
        }
        self.handle = handle
    }

    private mutating func fill() -> Bool {
        if position < buffer.count { return true }
        if atEnd { return false }
        let chunk = (try? handle.read(upToCount: 1 << 16)) ?? nil
        guard let chunk, !chunk.isEmpty else {
            atEnd = true
            return false
        }
        buffer = [UInt8](chunk)
        position = 0
        return true
    }

    private mutating func peek() -> UInt8? { fill() ? buffer[position] : nil }

    private mutating func advance() -> UInt8? {
        guard fill() else { return nil }
        let byte = buffer[position]
        position += 1
        return byte
    }

    /// The next record; nil at the end of the file.
    public mutating func next() -> Result<Record, RecordError>? {
        if !started {
            started = true
            if peek() == 0xEF {
                let saved = (buffer, position)
                if advance() == 0xEF, advance() == 0xBB, advance() == 0xBF {
                } else {
                    (buffer, position) = saved
                }
            }
        }
        guard peek() != nil else { return nil }
        let startLine = line
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var invalid: String?
        func finish(_ bytes: [UInt8]) -> String {
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            invalid = invalid ?? "a field is not valid UTF-8"
            return String(decoding: bytes, as: UTF8.self)
        }
        while true {
            guard let byte = advance() else {
                if quoted { return .failure(RecordError(line: startLine, message: "a quoted field is not closed before the end of the file")) }
                fields.append(finish(field))
                break
            }
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if peek() == UInt8(ascii: "\"") {
                        _ = advance()
                        field.append(byte)
                    } else {
                        quoted = false
                    }
                } else {
                    if byte == 0x0A { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                fields.append(finish(field))
                field = []
            case UInt8(ascii: "\""):
                if field.isEmpty { quoted = true } else { field.append(byte) }
            case 0x0D:
                if peek() == 0x0A { continue }
                field.append(byte)
            case 0x0A:
                line += 1
                fields.append(finish(field))
                if let invalid { return .failure(RecordError(line: startLine, message: invalid)) }
                return .success(Record(fields: fields, line: startLine))
            default:
                field.append(byte)
            }
        }
        if let invalid { return .failure(RecordError(line: startLine, message: invalid)) }
        return .success(Record(fields: fields, line: startLine))
    }

    /// Quotes a field when it holds a comma, quote or line break.
    public static func escape(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
