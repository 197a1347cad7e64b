/// Rewrites a ZIP archive the way other producers lay theirs out, to test that readers accept what Wallet accepts.
///
/// Java's `ZipOutputStream` and .NET's `ZipArchive` writing to a stream they cannot seek set general-purpose flag
/// bit 3: the local header carries zero CRC and sizes, the real values follow the data in a data descriptor and
/// stand in the central directory. .NET also puts a ZIP64 extra field (with zero sizes) and "version needed 4.5"
/// into the local header only; Info-ZIP adds an extended-timestamp field that differs between the two headers.
public enum ZipRewriter {
    /// The same entries (same compressed data), rewritten with data descriptors and those local extra fields.
    /// `archive` must be a plain archive without ZIP64 records or comments (as Passmint writes them).
    public static func withDataDescriptors(_ archive: [UInt8]) -> [UInt8] {
        func u16(_ offset: Int) -> Int { Int(archive[offset]) | Int(archive[offset + 1]) << 8 }
        func u32(_ offset: Int) -> UInt32 { UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16 }
        var output: [UInt8] = []
        var central: [UInt8] = []
        func put16(_ value: Int, _ buffer: inout [UInt8]) { buffer += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func put32(_ value: UInt32, _ buffer: inout [UInt8]) {
            put16(Int(value & 0xFFFF), &buffer)
            put16(Int(value >> 16), &buffer)
        }

        let end = archive.count - 22
        precondition(u32(end) == 0x0605_4B50, "no end of central directory record where a plain archive has it")
        let count = u16(end + 10)
        var position = Int(u32(end + 16))
        for _ in 0..<count {
            let flags = u16(position + 8) | 0x08
            let method = u16(position + 10)
            let time = u16(position + 12)
            let date = u16(position + 14)
            let crc = u32(position + 16)
            let compressedSize = u32(position + 20)
            let size = u32(position + 24)
            let nameLength = u16(position + 28)
            let extraLength = u16(position + 30)
            let commentLength = u16(position + 32)
            let attributes = u32(position + 38)
            let localOffset = Int(u32(position + 42))
            let name = Array(archive[(position + 46)..<(position + 46 + nameLength)])
            let dataStart = localOffset + 30 + u16(localOffset + 26) + u16(localOffset + 28)
            let data = archive[dataStart..<(dataStart + Int(compressedSize))]

            var localExtra: [UInt8] = []
            put16(0x0001, &localExtra)
            put16(16, &localExtra)
            localExtra += [UInt8](repeating: 0, count: 16)  // ZIP64, sizes 0
            put16(0x5455, &localExtra)
            put16(9, &localExtra)
            localExtra.append(3)  // extended timestamp: mtime + atime
            put32(946_684_800, &localExtra)
            put32(946_684_800, &localExtra)
            let newOffset = UInt32(output.count)
            put32(0x0403_4B50, &output)
            put16(45, &output)
            put16(flags, &output)
            put16(method, &output)
            put16(time, &output)
            put16(date, &output)
            put32(0, &output)
            put32(0, &output)
            put32(0, &output)
            put16(name.count, &output)
            put16(localExtra.count, &output)
            output += name + localExtra + data
            put32(0x0807_4B50, &output)
            put32(crc, &output)
            put32(compressedSize, &output)
            put32(size, &output)

            var centralExtra: [UInt8] = []
            put16(0x5455, &centralExtra)
            put16(5, &centralExtra)
            centralExtra.append(1)
            put32(946_684_800, &centralExtra)
            put32(0x0201_4B50, &central)
            put16(u16(position + 4), &central)
            put16(20, &central)
            put16(flags, &central)
            put16(method, &central)
            put16(time, &central)
            put16(date, &central)
            put32(crc, &central)
            put32(compressedSize, &central)
            put32(size, &central)
            put16(name.count, &central)
            put16(centralExtra.count, &central)
            put16(0, &central)
            put16(0, &central)
            put16(0, &central)
            put32(attributes, &central)
            put32(newOffset, &central)
            central += name + centralExtra
            position += 46 + nameLength + extraLength + commentLength
        }
        let centralOffset = UInt32(output.count)
        output += central
        put32(0x0605_4B50, &output)
        put16(0, &output)
        put16(0, &output)
        put16(count, &output)
        put16(count, &output)
        put32(UInt32(central.count), &output)
        put32(centralOffset, &output)
        put16(0, &output)
        return output
    }

    /// `archive` with the entry named `name` renamed `newName` (of the same length) in its local and central headers:
    /// the way to make two entries of one name, which ZIP writers refuse to make. `archive` must be plain, as above.
    public static func renaming(_ name: String, to newName: String, in archive: [UInt8]) -> [UInt8] {
        precondition(name.utf8.count == newName.utf8.count, "a renamed entry keeps the length of its name")
        var output = archive
        forEachCentralRecord(named: name, in: archive) { position, local in
            let length = name.utf8.count
            output.replaceSubrange((position + 46)..<(position + 46 + length), with: Array(newName.utf8))
            output.replaceSubrange((local + 30)..<(local + 30 + length), with: Array(newName.utf8))
        }
        return output
    }

    /// `archive` with the entry named `name` marked a symbolic link (Unix mode `0o120777` in its central record's external
    /// attributes), as `zip --symlinks` stores one. `archive` must be plain, as above.
    public static func markingSymbolicLink(_ name: String, in archive: [UInt8]) -> [UInt8] {
        var output = archive
        forEachCentralRecord(named: name, in: archive) { position, _ in
            let attributes = UInt32(0o120777) << 16
            for shift in 0..<4 { output[position + 38 + shift] = UInt8(truncatingIfNeeded: attributes >> (8 * shift)) }
        }
        return output
    }

    /// Calls `body` with the offset of the central record of each entry named `name`, and of its local header.
    private static func forEachCentralRecord(named name: String, in archive: [UInt8], _ body: (Int, Int) -> Void) {
        func u16(_ offset: Int) -> Int { Int(archive[offset]) | Int(archive[offset + 1]) << 8 }
        func u32(_ offset: Int) -> Int { u16(offset) | u16(offset + 2) << 16 }
        let end = archive.count - 22
        precondition(u32(end) == 0x0605_4B50, "no end of central directory record where a plain archive has it")
        var position = u32(end + 16)
        for _ in 0..<u16(end + 10) {
            let nameLength = u16(position + 28)
            if Array(archive[(position + 46)..<(position + 46 + nameLength)]) == Array(name.utf8) { body(position, u32(position + 42)) }
            position += 46 + nameLength + u16(position + 30) + u16(position + 32)
        }
    }
}
