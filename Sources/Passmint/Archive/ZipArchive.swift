internal import CPassmintZip
import Foundation

/// In-memory ZIP archives: written by Passmint's own ZIP writer (``make(_:)``), read through libzip.
public enum ZipArchive {
    /// One file of an archive.
    public struct Entry: Sendable {
        public var name: String
        /// The file's bytes.
        public var bytes: [UInt8]
        /// Deflate the entry (JSON, strings) or store it as it is.
        public var compressed: Bool
        /// The archive marks the entry a symbolic link (Unix attributes `S_IFLNK`): its bytes are a path, not a file.
        public var isSymbolicLink: Bool

        public init(name: String, bytes: [UInt8], compressed: Bool, isSymbolicLink: Bool = false) {
            self.name = name
            self.bytes = bytes
            self.compressed = compressed
            self.isSymbolicLink = isSymbolicLink
        }
    }

    /// The fixed modification time written for every entry (2000-01-01 00:00 UTC), so the same files always
    /// give the same archive bytes.
    public static let fixedModificationTime = 946_684_800

    private static func message(_ error: inout zip_error_t) -> String {
        String(cString: zip_error_strerror(&error))
    }

    private static func archiveMessage(_ archive: OpaquePointer) -> String {
        String(cString: zip_strerror(archive))
    }

    /// Builds a ZIP archive in memory, entries in the order given: a compressed entry is deflated (stored when that
    /// does not make it smaller).
    ///
    /// - Throws: ``PassmintError/Code/archiveFailed`` when an entry is 4 GiB or more.
    public static func make(_ entries: [Entry]) throws(PassmintError) -> [UInt8] {
        var writer = ZipWriter(capacity: entries.reduce(22) { $0 + $1.bytes.count + $1.name.utf8.count + 30 })
        for entry in entries {
            guard UInt64(entry.bytes.count) < ZipRecords.limit32 else {
                throw PassmintError(.archiveFailed, "\(entry.name) is 4 GiB or more: too large for an entry of a ZIP archive")
            }
            let data = try entry.compressed ? PrecompressedData(compressing: entry.bytes, name: entry.name) : nil
            if let data {
                writer.add(name: entry.name, method: UInt16(data.method), crc: data.crc, size: data.size, data: data.buffer)
            } else {
                let crc = entry.bytes.withUnsafeBufferPointer { UInt32(cpassmint_crc32($0.baseAddress, $0.count)) }
                entry.bytes.withUnsafeBytes {
                    writer.add(name: entry.name, method: ZipRecords.Method.stored, crc: crc, size: entry.bytes.count, data: $0)
                }
            }
        }
        return writer.finish()
    }

    /// Reads from an open entry until `buffer` is full or the entry ends; returns the bytes read.
    static func readFully(_ file: OpaquePointer, into buffer: inout [UInt8]) -> Int {
        var offset = 0
        while offset < buffer.count {
            let read = buffer.withUnsafeMutableBytes { zip_fread(file, $0.baseAddress! + offset, zip_uint64_t($0.count - offset)) }
            if read <= 0 { break }
            offset += Int(read)
        }
        return offset
    }

    /// Whether the entry's external attributes, written on Unix, give it the file type of a symbolic link.
    private static func isSymbolicLink(_ archive: OpaquePointer, _ index: zip_uint64_t) -> Bool {
        var system: zip_uint8_t = 0
        var attributes: zip_uint32_t = 0
        guard zip_file_get_external_attributes(archive, index, 0, &system, &attributes) == 0, UInt32(system) == ZIP_OPSYS_UNIX else {
            return false
        }
        return (attributes >> 16) & 0o170000 == 0o120000
    }

    /// The name of a ZIP compression method, as APPNOTE.TXT numbers them.
    static func methodName(_ method: UInt16) -> String {
        let names: [UInt16: String] = [
            1: "shrink", 6: "implode", 9: "deflate64", 12: "bzip2", 14: "LZMA", 93: "Zstandard", 95: "XZ", 96: "JPEG", 97: "WavPack",
            98: "PPMd",
        ]
        return "\(names[method] ?? "an unknown method") (method \(method))"
    }

    /// Reads every entry of an in-memory archive, checking its structure and each entry's CRC.
    /// `source` names the archive in errors.
    ///
    /// Before anything is inflated, the sizes the central directory declares are checked against `limits`; an entry
    /// is then read into a buffer of its declared size and must end there with the right CRC, so a forged size
    /// cannot make it unpack to more.
    public static func read(_ bytes: [UInt8], source name: String, limits: ZipLimits = .pass) throws(PassmintError) -> [Entry] {
        // libzip opens an empty file as an empty archive; a ZIP file has at least its 22-byte end record.
        guard bytes.count >= 22 else {
            throw PassmintError(
                .archiveFailed, "\(name) is not a ZIP archive: it has \(bytes.count) bytes, and the smallest ZIP file has 22")
        }
        if let shown = ZipEntryNames.firstNameWithNUL(in: bytes) {
            throw PassmintError(
                .archiveFailed, "\(name) has an entry named \"\(shown)\": a file name in a pass cannot contain a NUL byte (\\0)")
        }
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        let copy = malloc(max(bytes.count, 1))!
        bytes.withUnsafeBytes { raw in
            if raw.count > 0 { copy.copyMemory(from: raw.baseAddress!, byteCount: raw.count) }
        }
        guard let source = zip_source_buffer_create(copy, zip_uint64_t(bytes.count), 1, &error) else {
            free(copy)
            throw PassmintError(.archiveFailed, "\(name): \(message(&error))")
        }
        // Without ZIP_CHECKCONS: its comparison of local and central headers refuses archives Wallet installs, such as
        // entries written with data descriptors (sizes and CRC in the central directory only) and a ZIP64 extra field
        // in the local header, as Java and .NET servers write them. Every entry's CRC is still checked below.
        guard let archive = zip_open_from_source(source, ZIP_RDONLY, &error) else {
            zip_source_free(source)
            throw PassmintError(.archiveFailed, "\(name) is not a readable ZIP archive: \(message(&error))")
        }
        defer { zip_discard(archive) }
        let count = zip_get_num_entries(archive, 0)
        guard count <= Int64(limits.maximumEntries) else {
            throw PassmintError(.archiveFailed, "\(name) has \(count) entries, more than the \(limits.maximumEntries) a pass may have")
        }
        var declared: [(name: String, size: Int, compressedSize: Int)] = []
        for index in 0..<zip_uint64_t(max(count, 0)) {
            var stat = zip_stat_t()
            zip_stat_init(&stat)
            guard zip_stat_index(archive, index, 0, &stat) == 0 else {
                throw PassmintError(.archiveFailed, "\(name): cannot read entry \(index): \(archiveMessage(archive))")
            }
            let entryName = stat.name.map { String(cString: $0) } ?? "#\(index)"
            declared.append((entryName, Int(clamping: stat.size), Int(clamping: stat.comp_size)))
        }
        if let violation = limits.violation(of: declared, archive: name) {
            throw PassmintError(.archiveFailed, violation)
        }
        var entries: [Entry] = []
        for index in 0..<zip_uint64_t(max(count, 0)) {
            guard let namePointer = zip_get_name(archive, index, zip_flags_t(ZIP_FL_ENC_GUESS)) else { continue }
            let entryName = String(cString: namePointer)
            var stat = zip_stat_t()
            zip_stat_init(&stat)
            guard zip_stat_index(archive, index, 0, &stat) == 0 else {
                throw PassmintError(.archiveFailed, "\(name): cannot read entry \(entryName): \(archiveMessage(archive))")
            }
            guard stat.comp_method == UInt16(ZIP_CM_STORE) || stat.comp_method == UInt16(ZIP_CM_DEFLATE) else {
                throw PassmintError(
                    .archiveFailed,
                    "\(name): entry \(entryName) is compressed with \(methodName(stat.comp_method)); Wallet reads only stored and deflated "
                        + "entries: zip the pass again with deflate (the default of zip and of every ZIP library)")
            }
            guard let file = zip_fopen_index(archive, index, 0) else {
                throw PassmintError(.archiveFailed, "\(name): cannot open entry \(entryName): \(archiveMessage(archive))")
            }
            defer { zip_fclose(file) }
            var data = [UInt8](repeating: 0, count: Int(stat.size))
            let offset = readFully(file, into: &data)
            // A final read reports CRC errors.
            var probe: UInt8 = 0
            let last = zip_fread(file, &probe, 1)
            guard offset == data.count, last == 0 else {
                throw PassmintError(.archiveFailed, "\(name): entry \(entryName) is damaged (size or CRC mismatch)")
            }
            entries.append(
                Entry(
                    name: entryName, bytes: data, compressed: stat.comp_method != UInt16(ZIP_CM_STORE),
                    isSymbolicLink: isSymbolicLink(archive, index)))
        }
        return entries
    }
}

/// File data compressed once (deflate, or stored when deflate does not help) with its CRC, for copying into many
/// archives without compressing or checksumming it again.
public final class PrecompressedData: @unchecked Sendable {
    // Immutable after init; the buffer is freed in deinit.
    let pointer: UnsafeMutablePointer<UInt8>
    /// Bytes of compressed data.
    public let compressedSize: Int
    /// Bytes of the original file.
    public let size: Int
    public let crc: UInt32
    let method: Int32

    private init(copying data: [UInt8], size: Int, crc: UInt32, method: Int32) {
        pointer = .allocate(capacity: max(data.count, 1))
        pointer.initialize(from: data, count: data.count)
        compressedSize = data.count
        self.size = size
        self.crc = crc
        self.method = method
    }

    deinit { pointer.deallocate() }

    /// Deflates a small buffer (a few KB, such as `pass.json`) with a small window, cheaply; stored when that does not
    /// make it smaller.
    public convenience init(deflatingSmall bytes: [UInt8]) {
        var output = [UInt8](repeating: 0, count: bytes.count + 64)
        var crc: UInt = 0
        let length = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer {
                cpassmint_deflate_small(input.baseAddress, input.count, $0.baseAddress, $0.count, 6, &crc)
            }
        }
        if length > 0 {
            self.init(copying: Array(output.prefix(length)), size: bytes.count, crc: UInt32(crc), method: ZIP_CM_DEFLATE)
        } else {
            self.init(copying: bytes, size: bytes.count, crc: UInt32(crc), method: ZIP_CM_STORE)
        }
    }

    /// Deflates `bytes` (zlib's raw deflate at level 9, a 32 KB window) and keeps the compressed stream and CRC;
    /// keeps the bytes stored when deflate does not make them smaller.
    public convenience init(compressing bytes: [UInt8], name: String) throws(PassmintError) {
        var output = [UInt8](repeating: 0, count: bytes.count)
        var crc: UInt = 0
        let length = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer {
                cpassmint_deflate(input.baseAddress, input.count, $0.baseAddress, $0.count, 9, 15, 8, &crc)
            }
        }
        if length > 0 {
            self.init(copying: Array(output.prefix(length)), size: bytes.count, crc: UInt32(crc), method: ZIP_CM_DEFLATE)
        } else {
            self.init(copying: bytes, size: bytes.count, crc: UInt32(crc), method: ZIP_CM_STORE)
        }
    }

    /// The compressed bytes.
    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: pointer, count: compressedSize) }
}
