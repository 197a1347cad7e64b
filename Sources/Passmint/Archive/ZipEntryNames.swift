/// Entry names read from a ZIP file's central directory as raw bytes, for what libzip's C strings cannot show: a name
/// with a NUL byte in it, which libzip hands back cut at the NUL (so `pass.json\0.exe` would pass for `pass.json`).
enum ZipEntryNames {
    /// The first entry name holding a NUL byte, shown with `\0`; nil when there is none or the central directory cannot
    /// be walked here (ZIP64, or a damaged archive, which libzip then reports).
    static func firstNameWithNUL(in bytes: [UInt8]) -> String? {
        guard let end = endRecordOffset(bytes) else { return nil }
        let count = Int(uint16(bytes, end + 10))
        var offset = Int(uint32(bytes, end + 16))
        guard count != 0xFFFF, offset != 0xFFFF_FFFF else { return nil }
        for _ in 0..<count {
            guard offset + 46 <= bytes.count, uint32(bytes, offset) == 0x0201_4B50 else { return nil }
            let nameLength = Int(uint16(bytes, offset + 28))
            let extraLength = Int(uint16(bytes, offset + 30))
            let commentLength = Int(uint16(bytes, offset + 32))
            guard offset + 46 + nameLength <= bytes.count else { return nil }
            let name = bytes[(offset + 46)..<(offset + 46 + nameLength)]
            if name.contains(0) {
                return name.split(separator: 0, omittingEmptySubsequences: false)
                    .map { String(decoding: $0, as: UTF8.self) }
                    .joined(separator: "\\0")
            }
            offset += 46 + nameLength + extraLength + commentLength
        }
        return nil
    }

    /// A sentence naming the first entry name that occurs twice, or nil. ZIP readers disagree on which copy such an
    /// archive holds (one takes the first, another the last), so a second, unsigned `pass.json` could be read by one
    /// check and not by the other: Passmint refuses the archive instead.
    static func duplicate(in names: [String], archive: String) -> String? {
        var seen: Set<String> = []
        for name in names where !seen.insert(name).inserted {
            return "\(archive) holds two entries named \(name): a reader may take either copy (Wallet and Passmint could read "
                + "different files), so zip the pass again with each file once"
        }
        return nil
    }

    /// Where the end-of-central-directory record starts: searched backwards over the last 22 + 65,535 bytes (the
    /// record and the longest comment).
    private static func endRecordOffset(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 22 else { return nil }
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        var offset = bytes.count - 22
        while offset >= lowest {
            if bytes[offset] == 0x50, uint32(bytes, offset) == 0x0605_4B50 { return offset }
            offset -= 1
        }
        return nil
    }

    private static func uint16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(uint16(bytes, offset)) | UInt32(uint16(bytes, offset + 2)) << 16
    }
}
