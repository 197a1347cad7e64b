import CPassmintZip
import Foundation

/// `passmint batch --out-archive cards.zip`: every pass as a stored (uncompressed: a `.pkpass` is compressed already)
/// entry of one ZIP file, appended as it is made, so a batch pays one file, not one per pass. ZIP64 records are
/// written when the archive passes 4 GiB or 65,535 entries (100,000 passes of 265 KB make 26 GB).
///
/// Each entry's sizes and CRC are known before it is written (no data descriptors), so an archive cut short by a crash
/// can be read back entry by entry: ``init(path:resume:)`` keeps the entries that are whole and have the right CRC,
/// drops the rest, and goes on appending. The central directory is written by ``finish()``.
final class PassArchiveWriter {
    private struct CentralEntry {
        var name: [UInt8]
        var crc: UInt32
        var size: UInt64
        var offset: UInt64
    }

    let path: String
    private let handle: FileHandle
    private var entries: [CentralEntry] = []
    private var offset: UInt64 = 0
    /// Where the bytes not yet handed to writeback begin.
    private var writebackStart: UInt64 = 0
    /// Bytes handed to writeback at a time.
    private static let writebackChunk: UInt64 = 8 << 20

    /// Opens `path` for writing. With `resume`, an archive already there keeps its whole entries: each is handed to
    /// `kept` (its name and bytes, one at a time, so memory holds one pass), and the rest of the file is dropped.
    init(path: String, resume: Bool, kept: (String, [UInt8]) -> Void = { _, _ in }) throws(PassmintError) {
        self.path = path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PassmintError(.fileSystem, "cannot write \(path): \(String(cString: strerror(errno)))") }
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        let whole = resume ? Self.recover(fd, into: &entries, kept: kept) : 0
        offset = UInt64(whole)
        writebackStart = offset
        guard ftruncate(fd, off_t(whole)) == 0, lseek(fd, off_t(whole), SEEK_SET) >= 0 else {
            throw PassmintError(.fileSystem, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Appends one stored entry.
    func append(name: String, bytes: [UInt8]) throws(PassmintError) {
        let crc = bytes.withUnsafeBufferPointer { UInt32(crc32(crc32(0, nil, 0), $0.baseAddress, uInt($0.count))) }
        let header = localHeader(name: name, crc: crc, size: bytes.count)
        try appended(name: name, crc: crc, header: header, size: bytes.count, failure: bytes.withUnsafeBytes { write([$0], after: header) })
    }

    /// Appends a pass as a stored entry, written from its parts (its CRC from the template entries' CRC).
    func append(name: String, archive: PassArchive) throws(PassmintError) {
        let crc = archive.crc32
        let header = localHeader(name: name, crc: crc, size: archive.count)
        try appended(name: name, crc: crc, header: header, size: archive.count, failure: archive.withBuffers { write($0, after: header) })
    }

    private func localHeader(name: String, crc: UInt32, size: Int) -> [UInt8] {
        let nameBytes = Array(name.utf8)
        var header = ZipRecord()
        header.u32(0x0403_4B50)
        header.u16(20)  // version needed: 2.0
        header.u16(0x0800)  // names are UTF-8
        header.u16(0)  // stored
        header.u16(0)  // time
        header.u16(0x21)  // date: 1980-01-01
        header.u32(crc)
        header.u32(UInt32(size))
        header.u32(UInt32(size))
        header.u16(UInt16(nameBytes.count))
        header.u16(0)
        header.bytes += nameBytes
        return header.bytes
    }

    /// Records an entry written (or throws what writing it met), and hands what the disk has not been asked to
    /// write yet to writeback, so that the sync at the end has little left to do.
    private func appended(name: String, crc: UInt32, header: [UInt8], size: Int, failure: Int32) throws(PassmintError) {
        guard failure == 0 else { throw PassmintError(.fileSystem, "cannot write \(path): \(String(cString: strerror(failure)))") }
        entries.append(CentralEntry(name: Array(name.utf8), crc: crc, size: UInt64(size), offset: offset))
        offset += UInt64(header.count + size)
        if offset - writebackStart >= Self.writebackChunk {
            FileIO.startWriteback(handle.fileDescriptor, offset: Int(writebackStart), length: Int(offset - writebackStart))
            writebackStart = offset
        }
    }

    /// Writes `header`, then `buffers`, with one `writev`; returns 0 or the `errno`.
    private func write(_ buffers: [UnsafeRawBufferPointer], after header: [UInt8]) -> Int32 {
        header.withUnsafeBytes { FileIO.writeAll(handle.fileDescriptor, [$0] + buffers) }
    }

    /// Writes the central directory (with ZIP64 records when needed) and makes the archive durable.
    func finish() throws(PassmintError) {
        let start = offset
        var directory = ZipRecord()
        for entry in entries {
            let far = entry.offset >= 0xFFFF_FFFF
            directory.u32(0x0201_4B50)
            directory.u16(far ? 45 : 20)  // made by
            directory.u16(far ? 45 : 20)  // needed
            directory.u16(0x0800)
            directory.u16(0)
            directory.u16(0)
            directory.u16(0x21)
            directory.u32(entry.crc)
            directory.u32(UInt32(entry.size))
            directory.u32(UInt32(entry.size))
            directory.u16(UInt16(entry.name.count))
            directory.u16(far ? 12 : 0)  // extra: the ZIP64 offset
            directory.u16(0)  // comment
            directory.u16(0)  // disk
            directory.u16(0)  // internal attributes
            directory.u32(0o100644 << 16)  // external attributes: a regular file, rw-r--r--
            directory.u32(far ? 0xFFFF_FFFF : UInt32(entry.offset))
            directory.bytes += entry.name
            if far {
                directory.u16(0x0001)
                directory.u16(8)
                directory.u64(entry.offset)
            }
        }
        let size = UInt64(directory.bytes.count)
        let end = start + size
        if entries.count >= 0xFFFF || start >= 0xFFFF_FFFF || size >= 0xFFFF_FFFF {
            directory.u32(0x0606_4B50)  // ZIP64 end of central directory
            directory.u64(44)
            directory.u16(45)
            directory.u16(45)
            directory.u32(0)
            directory.u32(0)
            directory.u64(UInt64(entries.count))
            directory.u64(UInt64(entries.count))
            directory.u64(size)
            directory.u64(start)
            directory.u32(0x0706_4B50)  // its locator
            directory.u32(0)
            directory.u64(end)
            directory.u32(1)
        }
        directory.u32(0x0605_4B50)
        directory.u16(0)
        directory.u16(0)
        directory.u16(UInt16(min(entries.count, 0xFFFF)))
        directory.u16(UInt16(min(entries.count, 0xFFFF)))
        directory.u32(UInt32(min(size, 0xFFFF_FFFF)))
        directory.u32(UInt32(min(start, 0xFFFF_FFFF)))
        directory.u16(0)
        try write(directory.bytes)
        do {
            try handle.synchronize()
        } catch {
            throw PassmintError(.fileSystem, "cannot make \(path) durable: \(error.localizedDescription)")
        }
    }

    private func write(_ bytes: [UInt8]) throws(PassmintError) {
        let failure = write([], after: bytes)
        guard failure == 0 else { throw PassmintError(.fileSystem, "cannot write \(path): \(String(cString: strerror(failure)))") }
    }

    /// The length of the file's prefix made of whole stored entries with the right CRC (what a resumed run keeps),
    /// read entry by entry; their central records go into `entries`.
    private static func recover(_ fd: Int32, into entries: inout [CentralEntry], kept: (String, [UInt8]) -> Void) -> Int {
        func read(_ count: Int, at offset: Int) -> [UInt8]? {
            var buffer = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
                guard got > 0 else { return nil }
                done += got
            }
            return buffer
        }
        var position = 0
        while let header = read(30, at: position), ZipRecord.u32(header, 0) == 0x0403_4B50, ZipRecord.u16(header, 8) == 0 {
            let crc = ZipRecord.u32(header, 14)
            let size = Int(ZipRecord.u32(header, 18))
            let nameLength = Int(ZipRecord.u16(header, 26))
            let extraLength = Int(ZipRecord.u16(header, 28))
            guard let name = read(nameLength, at: position + 30),
                let content = read(size, at: position + 30 + nameLength + extraLength),
                content.withUnsafeBufferPointer({ UInt32(crc32(crc32(0, nil, 0), $0.baseAddress, uInt($0.count))) }) == crc
            else { break }
            entries.append(CentralEntry(name: name, crc: crc, size: UInt64(size), offset: UInt64(position)))
            kept(String(decoding: name, as: UTF8.self), content)
            position += 30 + nameLength + extraLength + size
        }
        return position
    }
}

/// Little-endian fields of ZIP records.
struct ZipRecord {
    var bytes: [UInt8] = []

    mutating func u16(_ value: UInt16) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8)] }
    mutating func u32(_ value: UInt32) {
        u16(UInt16(value & 0xFFFF))
        u16(UInt16(value >> 16))
    }
    mutating func u64(_ value: UInt64) {
        u32(UInt32(value & 0xFFFF_FFFF))
        u32(UInt32(value >> 32))
    }

    static func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16 { UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8 }
    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(u16(bytes, offset)) | UInt32(u16(bytes, offset + 2)) << 16
    }
}
