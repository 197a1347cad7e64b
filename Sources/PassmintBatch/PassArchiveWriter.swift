import CPassmintZip
import Foundation
import Passmint

/// `passmint batch --out-archive cards.zip`: every pass as a stored (uncompressed: a `.pkpass` is compressed already)
/// entry of one ZIP file, appended as it is made, so a batch pays one file, not one per pass. ZIP64 records are
/// written when the archive passes 4 GiB or 65,535 entries (100,000 passes of 265 KB make 26 GB).
///
/// Each entry's sizes and CRC are known before it is written (no data descriptors), so an archive cut short by a crash
/// can be read back entry by entry: ``init(path:resume:)`` keeps the entries that are whole and have the right CRC,
/// drops the rest, and goes on appending. The central directory is written by ``finish()``.
final class PassArchiveWriter {
    private struct CentralEntry {
        var entry: ZipRecords.Entry
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
        var header: [UInt8] = []
        let entry = ZipRecords.Entry(name: name.utf8, method: ZipRecords.Method.stored, crc: crc, compressedSize: size, size: size)
        ZipRecords.appendLocalHeader(entry, to: &header)
        return header
    }

    /// Records an entry written (or throws what writing it met), and hands what the disk has not been asked to
    /// write yet to writeback, so that the sync at the end has little left to do.
    private func appended(name: String, crc: UInt32, header: [UInt8], size: Int, failure: Int32) throws(PassmintError) {
        guard failure == 0 else { throw PassmintError(.fileSystem, "cannot write \(path): \(String(cString: strerror(failure)))") }
        let entry = ZipRecords.Entry(name: name.utf8, method: ZipRecords.Method.stored, crc: crc, compressedSize: size, size: size)
        entries.append(CentralEntry(entry: entry, offset: offset))
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
        var directory: [UInt8] = []
        for central in entries { ZipRecords.appendCentralRecord(central.entry, offset: central.offset, to: &directory) }
        let size = UInt64(directory.count)
        ZipRecords.appendEnd(count: entries.count, directorySize: size, directoryOffset: offset, to: &directory)
        try write(directory)
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
        let headerSize = ZipRecords.localHeaderSize
        while let header = read(headerSize, at: position), header.littleEndian(UInt32.self, at: 0) == ZipRecords.Signature.localHeader,
            header.littleEndian(UInt16.self, at: ZipRecords.LocalHeaderField.method) == ZipRecords.Method.stored
        {
            let crc = header.littleEndian(UInt32.self, at: ZipRecords.LocalHeaderField.crc)
            let size = Int(header.littleEndian(UInt32.self, at: ZipRecords.LocalHeaderField.compressedSize))
            let nameLength = Int(header.littleEndian(UInt16.self, at: 26))
            let extraLength = Int(header.littleEndian(UInt16.self, at: 28))
            guard let name = read(nameLength, at: position + headerSize),
                let content = read(size, at: position + headerSize + nameLength + extraLength),
                content.withUnsafeBufferPointer({ UInt32(crc32(crc32(0, nil, 0), $0.baseAddress, uInt($0.count))) }) == crc
            else { break }
            let entry = ZipRecords.Entry(name: name, method: ZipRecords.Method.stored, crc: crc, compressedSize: size, size: size)
            entries.append(CentralEntry(entry: entry, offset: UInt64(position)))
            kept(String(decoding: name, as: UTF8.self), content)
            position += headerSize + nameLength + extraLength + size
        }
        return position
    }
}
