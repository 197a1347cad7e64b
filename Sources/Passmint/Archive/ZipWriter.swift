internal import CPassmintZip

/// Writes the records of a ZIP archive into memory, for pass archives Passmint assembles itself (``PassArchive``) and
/// for ``ZipArchive/make(_:)``: local headers that carry the sizes and CRC (no data descriptors), the central
/// directory and the end record, all encoded by ``ZipRecords``. The archive may start with entries written elsewhere
/// (``ZipPrefix``): `base` is their length and `count` their number, and their central records are put first by
/// ``finish(leadingCentral:)``.
struct ZipWriter {
    /// Local entries written so far; they start at offset `base` of the archive.
    var local: [UInt8] = []
    /// The central directory records of those entries.
    var central: [UInt8] = []
    /// Entries in the archive so far, those of the prefix included.
    private(set) var count: Int
    private let base: Int

    init(base: Int = 0, count: Int = 0, capacity: Int = 0) {
        self.base = base
        self.count = count
        local.reserveCapacity(capacity)
        central.reserveCapacity(1024)
    }

    /// Adds an entry whose compressed data is `data`.
    mutating func add(name: String, method: UInt16, crc: UInt32, size: Int, data: UnsafeRawBufferPointer) {
        let entry = ZipRecords.Entry(name: name.utf8, method: method, crc: crc, compressedSize: data.count, size: size)
        let offset = base + local.count
        ZipRecords.appendLocalHeader(entry, to: &local)
        local.append(contentsOf: data)
        ZipRecords.appendCentralRecord(entry, offset: UInt64(offset), to: &central)
        count += 1
    }

    /// Adds a small file (JSON): deflated at `level` with a small window when that makes it smaller, else stored; 0
    /// stores it. The data is compressed straight into the archive, after a header whose method, CRC and size are
    /// filled in then.
    mutating func add(name: String, small bytes: [UInt8], level: Int32) {
        var crc: UInt = 0
        let stored = ZipRecords.Entry(
            name: name.utf8, method: ZipRecords.Method.stored, crc: 0, compressedSize: bytes.count, size: bytes.count)
        let headerStart = local.count
        ZipRecords.appendLocalHeader(stored, to: &local)
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
        var entry = stored
        if produced == 0 {
            local.append(contentsOf: bytes)
            crc = bytes.withUnsafeBufferPointer { UInt(cpassmint_crc32($0.baseAddress, $0.count)) }
        } else {
            entry.method = ZipRecords.Method.deflated
            entry.compressedSize = produced
        }
        entry.crc = UInt32(crc)
        local.putLittleEndian(entry.method, at: headerStart + ZipRecords.LocalHeaderField.method)
        local.putLittleEndian(entry.crc, at: headerStart + ZipRecords.LocalHeaderField.crc)
        local.putLittleEndian(UInt32(entry.compressedSize), at: headerStart + ZipRecords.LocalHeaderField.compressedSize)
        ZipRecords.appendCentralRecord(entry, offset: UInt64(base + headerStart), to: &central)
        count += 1
    }

    /// The local entries, then `leadingCentral` (the prefix's central records), this writer's central records and
    /// the end record: the archive's bytes from `base` on.
    mutating func finish(leadingCentral: [UInt8] = []) -> [UInt8] {
        let directoryOffset = base + local.count
        local.append(contentsOf: leadingCentral)
        local.append(contentsOf: central)
        let directorySize = leadingCentral.count + central.count
        ZipRecords.appendEnd(count: count, directorySize: UInt64(directorySize), directoryOffset: UInt64(directoryOffset), to: &local)
        return local
    }

    /// Whether the archive still fits the plain ZIP format (no ZIP64): under 65,535 entries and 4 GiB.
    var fitsWithoutZip64: Bool { count < 0xFFFF && base + local.count + central.count < 0xFFFF_FFFF }
}
