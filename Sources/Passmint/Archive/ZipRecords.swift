/// The records of a ZIP file (PKWARE's APPNOTE.TXT, section 4.3), encoded in one place for every archive Passmint
/// writes: passes (``ZipWriter``), `batch --out-archive` (`PassArchiveWriter`) and `.pkpasses` bundles
/// (``ZipArchive/make(_:)``). libzip only reads archives.
///
/// Every entry gets the same fixed modification time (``ZipArchive/fixedModificationTime``), "made by" Unix with a
/// regular file's permissions, and the UTF-8 flag when its name is not ASCII, so the same files always give the same
/// bytes. Entries are at most 4 GiB (their sizes sit in the local header); an archive past 4 GiB or 65,535 entries
/// gets ZIP64 offsets and end records.
package enum ZipRecords {
    /// The four-byte signatures that begin each record.
    package enum Signature {
        package static let localHeader: UInt32 = 0x0403_4B50
        package static let centralRecord: UInt32 = 0x0201_4B50
        package static let end: UInt32 = 0x0605_4B50
        package static let zip64End: UInt32 = 0x0606_4B50
        package static let zip64Locator: UInt32 = 0x0706_4B50
    }

    /// Compression methods Passmint writes (and the only two Wallet reads).
    package enum Method {
        package static let stored: UInt16 = 0
        package static let deflated: UInt16 = 8
    }

    /// What a local header and its central record say of one entry.
    package struct Entry {
        package var name: [UInt8]
        package var method: UInt16
        package var crc: UInt32
        package var compressedSize: Int
        package var size: Int

        package init(name: some Sequence<UInt8>, method: UInt16, crc: UInt32, compressedSize: Int, size: Int) {
            self.name = Array(name)
            self.method = method
            self.crc = crc
            self.compressedSize = compressedSize
            self.size = size
        }
    }

    /// Bytes of a local header before the entry's name.
    package static let localHeaderSize = 30
    /// Offsets within a local header of the fields a writer may fill in after the header is written.
    package enum LocalHeaderField {
        package static let method = 8
        package static let crc = 14
        package static let compressedSize = 18
    }
    /// The DOS date of 2000-01-01 (``ZipArchive/fixedModificationTime``); its time of day is 00:00.
    static let dosDate: UInt16 = (20 << 9) | (1 << 5) | 1
    /// The largest value a 32-bit field holds; larger offsets and counts go into ZIP64 records.
    static let limit32: UInt64 = 0xFFFF_FFFF

    /// Appends a local header (sizes and CRC in it: no data descriptor follows the data).
    package static func appendLocalHeader(_ entry: Entry, to bytes: inout [UInt8]) {
        bytes.appendLittleEndian(Signature.localHeader)
        appendSharedFields(entry, version: 20, extraLength: 0, to: &bytes)
        bytes.append(contentsOf: entry.name)
    }

    /// Appends a central directory record for an entry whose local header starts at `offset` (a ZIP64 extra field
    /// holds the offset past 4 GiB).
    package static func appendCentralRecord(_ entry: Entry, offset: UInt64, to bytes: inout [UInt8]) {
        let far = offset >= limit32
        let version: UInt16 = far ? 45 : 20
        bytes.appendLittleEndian(Signature.centralRecord)
        bytes.appendLittleEndian(UInt16(3 << 8) | version)  // made by: Unix
        appendSharedFields(entry, version: version, extraLength: far ? 12 : 0, to: &bytes)
        bytes.appendLittleEndian(UInt16(0))  // comment
        bytes.appendLittleEndian(UInt16(0))  // disk
        bytes.appendLittleEndian(UInt16(0))  // internal attributes
        bytes.appendLittleEndian(UInt32(0o100644 << 16))  // external attributes: a regular file, rw-r--r--
        bytes.appendLittleEndian(far ? UInt32.max : UInt32(offset))
        bytes.append(contentsOf: entry.name)
        if far {
            bytes.appendLittleEndian(UInt16(0x0001))  // ZIP64 extended information
            bytes.appendLittleEndian(UInt16(8))
            bytes.appendLittleEndian(offset)
        }
    }

    /// Appends the end of the archive: a ZIP64 end record and its locator when the count or the directory's place
    /// does not fit the classic record, then the classic end record.
    package static func appendEnd(count: Int, directorySize: UInt64, directoryOffset: UInt64, to bytes: inout [UInt8]) {
        let entries = UInt64(count)
        if entries >= 0xFFFF || directoryOffset >= limit32 || directorySize >= limit32 {
            let zip64Offset = directoryOffset + directorySize
            bytes.appendLittleEndian(Signature.zip64End)
            bytes.appendLittleEndian(UInt64(44))  // the record's size after this field
            bytes.appendLittleEndian(UInt16(3 << 8 | 45))
            bytes.appendLittleEndian(UInt16(45))
            bytes.appendLittleEndian(UInt32(0))  // this disk
            bytes.appendLittleEndian(UInt32(0))  // the directory's disk
            bytes.appendLittleEndian(entries)
            bytes.appendLittleEndian(entries)
            bytes.appendLittleEndian(directorySize)
            bytes.appendLittleEndian(directoryOffset)
            bytes.appendLittleEndian(Signature.zip64Locator)
            bytes.appendLittleEndian(UInt32(0))
            bytes.appendLittleEndian(zip64Offset)
            bytes.appendLittleEndian(UInt32(1))  // disks
        }
        bytes.appendLittleEndian(Signature.end)
        bytes.appendLittleEndian(UInt16(0))  // this disk
        bytes.appendLittleEndian(UInt16(0))  // the directory's disk
        bytes.appendLittleEndian(UInt16(min(entries, 0xFFFF)))
        bytes.appendLittleEndian(UInt16(min(entries, 0xFFFF)))
        bytes.appendLittleEndian(UInt32(min(directorySize, limit32)))
        bytes.appendLittleEndian(UInt32(min(directoryOffset, limit32)))
        bytes.appendLittleEndian(UInt16(0))  // comment
    }

    /// The fields a local header and its central record share, from "version needed" to the extra field's length.
    private static func appendSharedFields(_ entry: Entry, version: UInt16, extraLength: UInt16, to bytes: inout [UInt8]) {
        bytes.appendLittleEndian(version)  // version needed
        bytes.appendLittleEndian(entry.name.allSatisfy { $0 < 0x80 } ? UInt16(0) : 0x0800)  // bit 11: the name is UTF-8
        bytes.appendLittleEndian(entry.method)
        bytes.appendLittleEndian(UInt16(0))  // time: 00:00
        bytes.appendLittleEndian(dosDate)
        bytes.appendLittleEndian(entry.crc)
        bytes.appendLittleEndian(UInt32(truncatingIfNeeded: entry.compressedSize))
        bytes.appendLittleEndian(UInt32(truncatingIfNeeded: entry.size))
        bytes.appendLittleEndian(UInt16(truncatingIfNeeded: entry.name.count))
        bytes.appendLittleEndian(extraLength)
    }
}

extension [UInt8] {
    /// Appends `value` least significant byte first, as every ZIP field is written.
    mutating func appendLittleEndian<Value: FixedWidthInteger & UnsignedInteger>(_ value: Value) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    /// Overwrites the little-endian field at `offset` with `value`.
    mutating func putLittleEndian<Value: FixedWidthInteger & UnsignedInteger>(_ value: Value, at offset: Int) {
        Swift.withUnsafeBytes(of: value.littleEndian) { field in
            for (index, byte) in field.enumerated() { self[offset + index] = byte }
        }
    }

    /// The little-endian field of `Value`'s width at `offset`.
    package func littleEndian<Value: FixedWidthInteger & UnsignedInteger>(_: Value.Type, at offset: Int) -> Value {
        var value: Value = 0
        for index in (0..<MemoryLayout<Value>.size).reversed() { value = value << 8 | Value(self[offset + index]) }
        return value
    }
}
