import Foundation
import Passmint

/// The text encodings a data file may be in: what spreadsheet programs save as CSV.
public enum TextEncoding: String, Sendable, CaseIterable {
    /// UTF-8, with or without a byte order mark ("CSV UTF-8" in Excel).
    case utf8 = "utf-8"
    /// UTF-16 little-endian (Excel's "Unicode Text", which starts with a byte order mark).
    case utf16LE = "utf-16le"
    /// UTF-16 big-endian.
    case utf16BE = "utf-16be"
    /// Windows-1252, the "ANSI" code page of Western European Windows (Excel's plain "CSV" there).
    case windows1252 = "windows-1252"

    /// The encoding for a name as a user types it: `utf-8`, `utf8`, `utf-16le`, `windows-1252`, `cp1252`, …
    /// (case and `-`/`_` ignored).
    public init?(name: String) {
        let key = name.lowercased().replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "_", with: "")
        switch key {
        case "utf8": self = .utf8
        case "utf16le", "utf16", "unicode": self = .utf16LE
        case "utf16be": self = .utf16BE
        case "windows1252", "cp1252", "ansi": self = .windows1252
        default: return nil
        }
    }

    /// The encoding a byte order mark at the start of `bytes` announces, with the mark's length.
    static func byteOrderMark(_ bytes: ArraySlice<UInt8>) -> (TextEncoding, Int)? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16LE, 2) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16BE, 2) }
        return nil
    }

    /// Unicode scalars of Windows-1252's bytes 0x80–0x9F (the rest are Latin-1). The five bytes Windows leaves
    /// undefined map to the C1 control of the same number, as browsers read them.
    static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}

/// Reads a text file in blocks and hands them on as UTF-8: UTF-8 as it is, UTF-16 and Windows-1252 converted. A byte
/// order mark at the start decides the encoding and is dropped; without one the file is read in the given encoding
/// (UTF-8 by default). Text that cannot be converted (an unpaired UTF-16 surrogate) comes out as the byte 0xFF,
/// which is never valid UTF-8, so the reader of the UTF-8 reports it.
struct UTF8BlockReader {
    private let handle: FileHandle
    /// The encoding the file is read in.
    let encoding: TextEncoding
    /// Whether the file starts with a byte order mark.
    let hasByteOrderMark: Bool
    private var first: [UInt8]?
    private var carry: [UInt8] = []
    private var atEnd = false
    static let blockSize = 1 << 16

    init(path: String, encoding requested: TextEncoding?) throws(PassmintError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw PassmintError(.fileSystem, "data file \(path) does not exist or cannot be read")
        }
        self.handle = handle
        var block = Self.read(handle)
        if let (announced, length) = TextEncoding.byteOrderMark(block[...]) {
            encoding = announced
            hasByteOrderMark = true
            block.removeFirst(length)
        } else {
            encoding = requested ?? .utf8
            hasByteOrderMark = false
        }
        first = block
    }

    private static func read(_ handle: FileHandle) -> [UInt8] {
        guard let data = try? handle.read(upToCount: blockSize) else { return [] }
        return [UInt8](data)
    }

    /// The next block of UTF-8; nil at the end of the file.
    mutating func next() -> [UInt8]? {
        while !atEnd {
            let raw: [UInt8]
            if let pending = first {
                first = nil
                raw = pending
            } else {
                raw = Self.read(handle)
            }
            let last = raw.isEmpty
            if last { atEnd = true }
            let converted = convert(raw, last: last)
            if !converted.isEmpty { return converted }
        }
        return nil
    }

    private mutating func convert(_ raw: [UInt8], last: Bool) -> [UInt8] {
        switch encoding {
        case .utf8:
            return raw
        case .windows1252:
            var output: [UInt8] = []
            output.reserveCapacity(raw.count + raw.count / 8)
            for byte in raw {
                if byte < 0x80 {
                    output.append(byte)
                } else {
                    Self.appendUTF8(byte < 0xA0 ? TextEncoding.windows1252High[Int(byte - 0x80)] : UInt32(byte), to: &output)
                }
            }
            return output
        case .utf16LE, .utf16BE:
            return convertUTF16(carry + raw, last: last, littleEndian: encoding == .utf16LE)
        }
    }

    private mutating func convertUTF16(_ bytes: [UInt8], last: Bool, littleEndian: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        func unit(at offset: Int) -> UInt32 {
            littleEndian ? UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 : UInt32(bytes[offset]) << 8 | UInt32(bytes[offset + 1])
        }
        while index + 1 < bytes.count {
            let code = unit(at: index)
            if (0xD800..<0xDC00).contains(code) {
                guard index + 3 < bytes.count else { break }  // the pair continues in the next block
                let low = unit(at: index + 2)
                if (0xDC00..<0xE000).contains(low) {
                    Self.appendUTF8(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00), to: &output)
                    index += 4
                } else {
                    output.append(0xFF)
                    index += 2
                }
                continue
            }
            if (0xDC00..<0xE000).contains(code) { output.append(0xFF) } else { Self.appendUTF8(code, to: &output) }
            index += 2
        }
        carry = Array(bytes[index...])
        if last && !carry.isEmpty {
            output.append(0xFF)  // an odd byte or a lone high surrogate at the end
            carry = []
        }
        return output
    }

    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            output.append(UInt8(scalar))
        case ..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
