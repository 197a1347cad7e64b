import Foundation
import Passmint

/// `passmint batch --out -`: every pass as an entry of a POSIX tar stream on a file descriptor (standard output), in
/// row order, for piping into an upload tool (`| aws s3 cp - s3://bucket/cards.tar`) without a file per pass. Names
/// longer than ustar's 100 bytes get a PAX header. ``finish(reportAt:)`` ends the stream with the report as its last
/// entry.
final class PassTarWriter {
    private let handle: FileHandle
    private let mtime = Int(Date().timeIntervalSince1970)

    init(fileDescriptor: Int32) {
        handle = FileHandle(fileDescriptor: fileDescriptor, closeOnDealloc: false)
    }

    /// Appends one file.
    func append(name: String, bytes: [UInt8]) throws(PassmintError) {
        try check(bytes.withUnsafeBytes { write([$0], after: headers(name: name, size: bytes.count)) })
    }

    /// Appends a pass, written from its parts.
    func append(name: String, archive: PassArchive) throws(PassmintError) {
        try check(archive.withBuffers { write($0, after: headers(name: name, size: archive.count)) })
    }

    /// The header blocks of a file (a PAX header first when its name is longer than 100 bytes).
    private func headers(name: String, size: Int) -> [UInt8] {
        var output: [UInt8] = []
        let nameBytes = Array(name.utf8)
        if nameBytes.count > 100 {
            // A PAX extended header carries the whole name: "<length> path=<name>\n", the length counting itself.
            let body = " path=" + name + "\n"
            var length = body.utf8.count + 1
            while String(length).count + body.utf8.count != length { length = String(length).count + body.utf8.count }
            let record = Array((String(length) + body).utf8)
            output += header(name: Array("PaxHeader/\(name.suffix(80))".utf8.prefix(100)), size: record.count, type: "x")
            output += padded(record)
        }
        output += header(name: Array(nameBytes.prefix(100)), size: size, type: "0")
        return output
    }

    /// Appends the file at `reportPath` (the report, under its file name), then the two empty blocks that end a tar
    /// stream. The file is copied 1 MB at a time: the report of a million rows is over 100 MB.
    func finish(reportAt reportPath: String?) throws(PassmintError) {
        if let reportPath { try appendFile(at: reportPath) }
        try write([UInt8](repeating: 0, count: 1024))
    }

    private func appendFile(at path: String) throws(PassmintError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw PassmintError(.fileSystem, "cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw PassmintError(.fileSystem, "cannot read \(path): \(String(cString: strerror(errno)))") }
        let size = Int(info.st_size)
        try check(write([], after: headers(name: String(path.split(separator: "/").last ?? Substring(path)), size: size)))
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var copied = 0
        while copied < size {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, size - copied)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw PassmintError(.fileSystem, "cannot read \(path): it ended at \(copied) of \(size) bytes") }
            try check(buffer.withUnsafeBytes { FileIO.writeAll(handle.fileDescriptor, [UnsafeRawBufferPointer(rebasing: $0[0..<got])]) })
            copied += got
        }
        try write([UInt8](repeating: 0, count: (512 - size % 512) % 512))
    }

    private func header(name: [UInt8], size: Int, type: Character) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        func put(_ bytes: [UInt8], at offset: Int) { block.replaceSubrange(offset..<(offset + bytes.count), with: bytes) }
        func octal(_ value: Int, width: Int) -> [UInt8] {
            let digits = String(value, radix: 8)
            return Array((String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits).utf8) + [0]
        }
        put(name, at: 0)
        put(octal(0o644, width: 8), at: 100)
        put(octal(0, width: 8), at: 108)
        put(octal(0, width: 8), at: 116)
        put(octal(size, width: 12), at: 124)
        put(octal(mtime, width: 12), at: 136)
        put(Array(repeating: UInt8(ascii: " "), count: 8), at: 148)  // the checksum counts itself as spaces
        put([UInt8(String(type).utf8.first!)], at: 156)
        put(Array("ustar".utf8) + [0] + Array("00".utf8), at: 257)
        let checksum = block.reduce(0) { $0 + Int($1) }
        put(octal(checksum, width: 7) + [UInt8(ascii: " ")], at: 148)
        return block
    }

    private func padded(_ bytes: [UInt8]) -> [UInt8] {
        let remainder = bytes.count % 512
        return remainder == 0 ? bytes : bytes + [UInt8](repeating: 0, count: 512 - remainder)
    }

    private func write(_ bytes: [UInt8]) throws(PassmintError) {
        try check(write([], after: bytes))
    }

    /// Writes `head`, `buffers` and the zeros that pad them to a whole block, with one `writev`; returns 0 or the `errno`.
    private func write(_ buffers: [UnsafeRawBufferPointer], after head: [UInt8]) -> Int32 {
        let size = buffers.reduce(0) { $0 + $1.count }
        let padding = [UInt8](repeating: 0, count: (512 - size % 512) % 512)
        return head.withUnsafeBytes { head in
            padding.withUnsafeBytes { FileIO.writeAll(handle.fileDescriptor, [head] + buffers + [$0]) }
        }
    }

    private func check(_ failure: Int32) throws(PassmintError) {
        guard failure == 0 else {
            throw PassmintError(.fileSystem, "cannot write the tar stream to standard output: \(String(cString: strerror(failure)))")
        }
    }
}
