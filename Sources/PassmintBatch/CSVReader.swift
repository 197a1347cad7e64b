import Foundation
public import Passmint

/// A streaming RFC 4180 CSV reader: quoted fields with `""` escapes, delimiters and line breaks inside quotes, CRLF
/// or LF line ends. Reads the file in blocks, so memory does not grow with its size.
///
/// Spreadsheets save "CSV" in several shapes, and the reader takes them all: the delimiter is a comma, a semicolon
/// (Excel in most European locales) or a tab (Excel's "Unicode Text"), detected from the first line unless given;
/// the text is UTF-8 (a byte order mark tolerated), UTF-16 with a byte order mark, or Windows-1252 when asked.
public struct CSVReader {
    /// One record and the line it starts on.
    public struct Record: Sendable {
        public var fields: [String]
        public var line: Int
    }

    /// A record that cannot be read (its line, and why).
    public struct RecordError: CodedError {
        public var code: PassmintError.Code { .invalidData }
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Bytes of one record (a row, or the header), as the service caps a line of an upload: a pass's data is never
    /// megabytes, and a longer record is skipped (reported as an error of its row) without being held in memory.
    public static let maximumRecordBytes = 16 << 20

    /// The delimiters a file may use, in the order detection prefers them on a tie.
    public static let delimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")]

    private var source: UTF8BlockReader
    private var buffer: [UInt8] = []
    private var position = 0
    private var line = 1
    /// The byte between fields.
    public let delimiter: UInt8
    /// True when ``delimiter`` was detected from the first line rather than given.
    public let detectedDelimiter: Bool
    /// The encoding the file is read in.
    public var encoding: TextEncoding { source.encoding }
    /// True when the file starts with a byte order mark (which chose ``encoding``).
    public var hasByteOrderMark: Bool { source.hasByteOrderMark }

    /// Opens `path`. `delimiter` nil detects it from the first line; `encoding` applies to files without a byte
    /// order mark (UTF-8 when nil).
    public init(path: String, delimiter: UInt8? = nil, encoding: TextEncoding? = nil) throws(PassmintError) {
        source = try UTF8BlockReader(path: path, encoding: encoding)
        buffer = source.next() ?? []
        if let delimiter {
            self.delimiter = delimiter
            detectedDelimiter = false
        } else {
            self.delimiter = Self.detectDelimiter(firstLineOf: buffer)
            detectedDelimiter = true
        }
    }

    /// The delimiter that occurs most often outside quotes on the first line; a comma when none does.
    static func detectDelimiter(firstLineOf bytes: [UInt8]) -> UInt8 {
        var counts: [UInt8: Int] = [:]
        var quoted = false
        for byte in bytes {
            if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if !quoted {
                if byte == 0x0A || byte == 0x0D { break }
                if delimiters.contains(byte) { counts[byte, default: 0] += 1 }
            }
        }
        var best = delimiters[0]
        for candidate in delimiters where counts[candidate, default: 0] > counts[best, default: 0] { best = candidate }
        return best
    }

    /// A delimiter's name for messages: "comma", "semicolon", "tab".
    public static func name(ofDelimiter delimiter: UInt8) -> String {
        switch delimiter {
        case UInt8(ascii: ","): "comma"
        case UInt8(ascii: ";"): "semicolon"
        case UInt8(ascii: "\t"): "tab"
        case UInt8(ascii: "|"): "pipe"
        default: "'\(Character(Unicode.Scalar(delimiter)))'"
        }
    }

    private mutating func fill() -> Bool {
        if position < buffer.count { return true }
        guard let block = source.next() else { return false }
        buffer = block
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

    /// What to say about text that is not valid in the file's encoding.
    private var invalidTextMessage: String {
        switch encoding {
        case .utf8:
            "a field is not valid UTF-8: if the file was saved by Excel as plain \"CSV\" on Windows, read it with --encoding "
                + "windows-1252 (or save it as \"CSV UTF-8\")"
        case .utf16LE, .utf16BE:
            "a field is not valid UTF-16 (a broken surrogate pair, or an odd number of bytes)"
        case .windows1252:
            "a field cannot be read as Windows-1252"
        }
    }

    /// The next record; nil at the end of the file.
    public mutating func next() -> Result<Record, RecordError>? {
        guard peek() != nil else { return nil }
        let startLine = line
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var invalid: String?
        var size = 0
        let invalidMessage = invalidTextMessage
        func finish(_ bytes: [UInt8]) -> String {
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            invalid = invalid ?? invalidMessage
            return String(decoding: bytes, as: UTF8.self)
        }
        while true {
            guard let byte = advance() else {
                if quoted {
                    return .failure(RecordError(line: startLine, message: "a quoted field is not closed before the end of the file"))
                }
                fields.append(finish(field))
                break
            }
            size += 1
            if size > Self.maximumRecordBytes {
                // Kept reading to the record's end, holding nothing.
                field.removeAll(keepingCapacity: true)
                fields = []
                invalid = Self.tooLongMessage
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
            case delimiter:
                fields.append(finish(field))
                field = []
            case UInt8(ascii: "\""):
                if field.isEmpty { quoted = true } else { field.append(byte) }
            case 0x0D, 0x0A:
                // A line ends with LF, CR LF, or a lone CR (what old Mac programs and some exports write).
                if byte == 0x0D, peek() == 0x0A { _ = advance() }
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

    /// What a record over ``maximumRecordBytes`` is told.
    static let tooLongMessage =
        "the row is longer than \(maximumRecordBytes >> 20) MiB, the limit of a row (a quoted value not closed where it "
        + "should be makes the rest of the file one value): shorten its values, or close the quote"

    /// Quotes a field when it holds a comma, quote or line break (for a comma-separated file).
    public static func escape(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
