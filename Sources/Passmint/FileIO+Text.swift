extension FileIO {
    /// The most a small text file a person gives on the command line may weigh (a project file, a mapping file, the
    /// data of one pass): far more than any holds, far less than a mistaken `/dev/zero` would fill.
    public static let maximumTextBytes = 16 << 20

    /// Reads a small text file the way the spreadsheet reader reads a CSV file saved on Windows or a Mac: bounded
    /// (``read(_:what:maximumBytes:limit:)``), a UTF-8 byte order mark dropped, UTF-16 (with its byte order mark, as
    /// Notepad and Excel save "Unicode") converted to UTF-8, and line ends (CRLF, CR) made LF. Returns UTF-8 bytes;
    /// UTF-16 that does not convert is refused naming the file.
    public static func readText(_ path: String, what: String, maximumBytes: Int = maximumTextBytes) throws(PassmintError) -> [UInt8] {
        let bytes = try read(path, what: what, maximumBytes: maximumBytes, limit: "a \(what) may weigh")
        var text: [UInt8]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            text = Array(bytes.dropFirst(3))
        } else if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            text = try utf8(fromUTF16: bytes.dropFirst(2), littleEndian: bytes[0] == 0xFF, path: path, what: what)
        } else {
            text = bytes
        }
        guard text.contains(0x0D) else { return text }
        // Line ends as LF: CRLF (Windows) and a lone CR (old Macs).
        var output: [UInt8] = []
        output.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            let byte = text[index]
            index += 1
            if byte == 0x0D {
                output.append(0x0A)
                if index < text.count, text[index] == 0x0A { index += 1 }
            } else {
                output.append(byte)
            }
        }
        text = output
        return text
    }

    private static func utf8(fromUTF16 bytes: ArraySlice<UInt8>, littleEndian: Bool, path: String, what: String) throws(PassmintError)
        -> [UInt8]
    {
        guard bytes.count % 2 == 0 else {
            throw PassmintError(.invalidData, "\(what) \(path) starts as UTF-16 but has an odd number of bytes: save it again as UTF-8")
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(littleEndian ? first | second << 8 : first << 8 | second)
            index += 2
        }
        var output: [UInt8] = []
        output.reserveCapacity(units.count)
        let failed = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: true) { output.append($0) }
        if failed {
            throw PassmintError(.invalidData, "\(what) \(path) is not valid UTF-16 (an unpaired surrogate): save it again as UTF-8")
        }
        return output
    }
}
