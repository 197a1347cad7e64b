internal import CPassmintZip

/// Writes the records of a ZIP archive into memory, for pass archives Passmint assembles itself (``PassArchive``):
/// local headers that carry the sizes and CRC (no data descriptors), the central directory and the end record. Every
/// entry has the fixed modification time ``ZipArchive/fixedModificationTime``; names are flagged UTF-8 when they are
/// not ASCII. The archive may start with entries written elsewhere (``ZipPrefix``): `base` is their length and
/// `count` their number, and their central records are put first by ``finish(leadingCentral:)``.
struct ZipWriter {
    /// Local entries written so far; they start at offset `base` of the archive.
    var local: [UInt8] = []
    /// The central directory records of those entries.
    var central: [UInt8] = []
    /// Entries in the archive so far, those of the prefix included.
    private(set) var count: Int
    private let base: Int

    /// The DOS date of 2000-01-01 (``ZipArchive/fixedModificationTime``); its time of day is 00:00.
    static let dosDate: UInt16 = (20 << 9) | (1 << 5) | 1

    init(base: Int = 0, count: Int = 0, capacity: Int = 0) {
        self.base = base
        self.count = count
        local.reserveCapacity(capacity)
        central.reserveCapacity(1024)
    }

    /// Adds an entry whose compressed data is `data`.
    mutating func add(name: String, method: UInt16, crc: UInt32, size: Int, data: UnsafeRawBufferPointer) {
        let offset = header(name: name, method: method, crc: crc, compressedSize: data.count, size: size)
        local.append(contentsOf: data)
        record(name: name, method: method, crc: crc, compressedSize: data.count, size: size, offset: offset)
    }

    /// Adds a small file (JSON): deflated at `level` when that makes it smaller, else stored; 0 stores it.
    mutating func add(name: String, small bytes: [UInt8], level: Int32) {
        var crc: UInt = 0
        let offset = header(name: name, method: UInt16(ZIP_CM_STORE), crc: 0, compressedSize: bytes.count, size: bytes.count)
        let start = local.count
        var produced = 0
        if level > 0 {
            local.append(contentsOf: repeatElement(0, count: bytes.count))
            produced = bytes.withUnsafeBufferPointer { input in
                local.withUnsafeMutableBufferPointer { output in
                    cpassmint_deflate_small(input.baseAddress, input.count, output.baseAddress! + start, input.count, level, &crc)
                }
            }
            local.removeLast(bytes.count - produced)
        }
        var method = UInt16(ZIP_CM_DEFLATE)
        if produced == 0 {
            local.removeLast(local.count - start)
            local.append(contentsOf: bytes)
            crc = bytes.withUnsafeBufferPointer { UInt(cpassmint_crc32($0.baseAddress, $0.count)) }
            method = UInt16(ZIP_CM_STORE)
        }
        let localOffset = offset - base
        put16(method, at: localOffset + 8)
        put32(UInt32(crc), at: localOffset + 14)
        put32(UInt32(local.count - start), at: localOffset + 18)
        record(name: name, method: method, crc: UInt32(crc), compressedSize: local.count - start, size: bytes.count, offset: offset)
    }

    /// The local entries, then `leadingCentral` (the prefix's central records), this writer's central records and
    /// the end record: the archive's bytes from `base` on.
    mutating func finish(leadingCentral: [UInt8] = []) -> [UInt8] {
        let directoryOffset = base + local.count
        local.append(contentsOf: leadingCentral)
        local.append(contentsOf: central)
        let directorySize = leadingCentral.count + central.count
        Self.append32(0x0605_4B50, to: &local)
        Self.append16(0, to: &local)
        Self.append16(0, to: &local)
        Self.append16(UInt16(truncatingIfNeeded: count), to: &local)
        Self.append16(UInt16(truncatingIfNeeded: count), to: &local)
        Self.append32(UInt32(truncatingIfNeeded: directorySize), to: &local)
        Self.append32(UInt32(truncatingIfNeeded: directoryOffset), to: &local)
        Self.append16(0, to: &local)
        return local
    }

    /// Whether the archive still fits the plain ZIP format (no ZIP64): under 65,535 entries and 4 GiB.
    var fitsWithoutZip64: Bool { count < 0xFFFF && base + local.count + central.count < 0xFFFF_FFFF }

    /// Writes a local header; returns its offset in the archive.
    private mutating func header(name: String, method: UInt16, crc: UInt32, compressedSize: Int, size: Int) -> Int {
        let offset = base + local.count
        let nameBytes = name.utf8
        Self.append32(0x0403_4B50, to: &local)
        Self.appendEntryFields(name: name, method: method, crc: crc, compressedSize: compressedSize, size: size, to: &local)
        local.append(contentsOf: nameBytes)
        return offset
    }

    private mutating func record(name: String, method: UInt16, crc: UInt32, compressedSize: Int, size: Int, offset: Int) {
        let nameBytes = name.utf8
        Self.append32(0x0201_4B50, to: &central)
        Self.append16(0x0314, to: &central)  // made by: Unix, 2.0
        Self.appendEntryFields(name: name, method: method, crc: crc, compressedSize: compressedSize, size: size, to: &central)
        Self.append16(0, to: &central)  // comment
        Self.append16(0, to: &central)  // disk
        Self.append16(0, to: &central)  // internal attributes
        Self.append32(0o100644 << 16, to: &central)  // external attributes: a regular file, rw-r--r--
        Self.append32(UInt32(truncatingIfNeeded: offset), to: &central)
        central.append(contentsOf: nameBytes)
        count += 1
    }

    /// The fields a local header and its central directory record share, from "version needed" to the extra field's
    /// length (none: the sizes always fit 32 bits here).
    private static func appendEntryFields(
        name: String, method: UInt16, crc: UInt32, compressedSize: Int, size: Int, to bytes: inout [UInt8]
    ) {
        Self.append16(20, to: &bytes)  // version needed: 2.0
        Self.append16(flags(name), to: &bytes)
        Self.append16(method, to: &bytes)
        Self.append16(0, to: &bytes)  // time: 00:00
        Self.append16(dosDate, to: &bytes)
        Self.append32(crc, to: &bytes)
        Self.append32(UInt32(truncatingIfNeeded: compressedSize), to: &bytes)
        Self.append32(UInt32(truncatingIfNeeded: size), to: &bytes)
        Self.append16(UInt16(truncatingIfNeeded: name.utf8.count), to: &bytes)
        Self.append16(0, to: &bytes)  // extra field
    }

    /// General purpose flags: bit 11 (the name is UTF-8) when the name is not ASCII.
    private static func flags(_ name: String) -> UInt16 { name.utf8.allSatisfy { $0 < 0x80 } ? 0 : 0x0800 }

    private static func append16(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    private static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        Self.append16(UInt16(truncatingIfNeeded: value), to: &bytes)
        Self.append16(UInt16(truncatingIfNeeded: value >> 16), to: &bytes)
    }

    private mutating func put16(_ value: UInt16, at offset: Int) {
        local[offset] = UInt8(truncatingIfNeeded: value)
        local[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
    }

    private mutating func put32(_ value: UInt32, at offset: Int) {
        put16(UInt16(truncatingIfNeeded: value), at: offset)
        put16(UInt16(truncatingIfNeeded: value >> 16), at: offset + 2)
    }
}
