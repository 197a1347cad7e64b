internal import CPassmintZip
import Foundation

/// In-memory ZIP archives through libzip.
public enum ZipArchive {
    /// One file to put into an archive.
    public struct Entry: Sendable {
        public var name: String
        /// The file's bytes (empty for a precompressed entry).
        public var bytes: [UInt8]
        /// Deflate the entry (JSON, strings) or store it as it is.
        public var compressed: Bool
        /// Data compressed once and copied as it is into every archive (template files).
        public var precompressed: PrecompressedData?

        public init(name: String, bytes: [UInt8], compressed: Bool) {
            self.name = name
            self.bytes = bytes
            self.compressed = compressed
        }

        public init(name: String, precompressed: PrecompressedData) {
            self.name = name
            self.bytes = []
            self.compressed = precompressed.method != ZIP_CM_STORE
            self.precompressed = precompressed
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

    /// Builds a ZIP archive in memory, entries in the order given.
    public static func make(_ entries: [Entry]) throws(PassmintError) -> [UInt8] {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_buffer_create(nil, 0, 0, &error) else {
            throw PassmintError(.archiveFailed, "libzip could not create a memory buffer: \(message(&error))")
        }
        guard let archive = zip_open_from_source(source, ZIP_TRUNCATE, &error) else {
            zip_source_free(source)
            throw PassmintError(.archiveFailed, "libzip could not open a memory archive: \(message(&error))")
        }
        zip_source_keep(source)
        defer { zip_source_free(source) }

        for entry in entries {
            let entrySource: OpaquePointer?
            if let data = entry.precompressed {
                // Copied as it is at zip_close; `entries` keeps `data` alive until this function returns.
                entrySource = cpassmint_precompressed_source(
                    archive, data.pointer, zip_uint64_t(data.compressedSize), zip_uint64_t(data.size), data.crc, data.method)
            } else {
                // libzip reads entry bytes at zip_close, so it gets its own malloc'ed copy and frees it.
                let copy = malloc(max(entry.bytes.count, 1))!
                entry.bytes.withUnsafeBytes { raw in
                    if raw.count > 0 { copy.copyMemory(from: raw.baseAddress!, byteCount: raw.count) }
                }
                entrySource = zip_source_buffer(archive, copy, zip_uint64_t(entry.bytes.count), 1)
                if entrySource == nil { free(copy) }
            }
            guard let entrySource else {
                let text = archiveMessage(archive)
                zip_discard(archive)
                throw PassmintError(.archiveFailed, "libzip could not add \(entry.name): \(text)")
            }
            let index = zip_file_add(archive, entry.name, entrySource, zip_flags_t(ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE))
            if index < 0 {
                zip_source_free(entrySource)
                let text = archiveMessage(archive)
                zip_discard(archive)
                throw PassmintError(.archiveFailed, "libzip could not add \(entry.name): \(text)")
            }
            let method = entry.precompressed.map { $0.method } ?? (entry.compressed ? ZIP_CM_DEFLATE : ZIP_CM_STORE)
            guard zip_set_file_compression(archive, zip_uint64_t(index), method, 0) == 0,
                zip_file_set_mtime(archive, zip_uint64_t(index), time_t(fixedModificationTime), 0) == 0
            else {
                let text = archiveMessage(archive)
                zip_discard(archive)
                throw PassmintError(.archiveFailed, "libzip could not set up \(entry.name): \(text)")
            }
        }
        guard zip_close(archive) == 0 else {
            let text = archiveMessage(archive)
            zip_discard(archive)
            throw PassmintError(.archiveFailed, "libzip could not write the archive: \(text)")
        }

        guard zip_source_open(source) == 0 else {
            throw PassmintError(.archiveFailed, "libzip could not read back the archive")
        }
        defer { zip_source_close(source) }
        zip_source_seek(source, 0, SEEK_END)
        let size = zip_source_tell(source)
        zip_source_seek(source, 0, SEEK_SET)
        guard size >= 0 else { throw PassmintError(.archiveFailed, "libzip could not measure the archive") }
        var output = [UInt8](repeating: 0, count: Int(size))
        let read = output.withUnsafeMutableBytes { zip_source_read(source, $0.baseAddress, zip_uint64_t(size)) }
        guard read == size else { throw PassmintError(.archiveFailed, "libzip could not read back the archive") }
        return output
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

    /// The local entries of an archive: its bytes before the central directory (read from the end record).
    static func localEntries(of archive: [UInt8]) -> [UInt8] {
        guard archive.count >= 22 else { return [] }
        let end = archive.count - 22
        guard archive[end] == 0x50, archive[end + 1] == 0x4B, archive[end + 2] == 0x05, archive[end + 3] == 0x06 else { return [] }
        let offset = Int(archive[end + 16]) | Int(archive[end + 17]) << 8 | Int(archive[end + 18]) << 16 | Int(archive[end + 19]) << 24
        return offset <= end ? Array(archive[0..<offset]) : []
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
            entries.append(Entry(name: entryName, bytes: data, compressed: stat.comp_method != UInt16(ZIP_CM_STORE)))
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

    /// Deflates `bytes` with libzip and keeps the raw compressed stream and CRC; keeps the bytes stored when deflate
    /// does not make them smaller.
    public convenience init(compressing bytes: [UInt8], name: String) throws(PassmintError) {
        let archive = try ZipArchive.make([ZipArchive.Entry(name: "entry", bytes: bytes, compressed: true)])
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        let copy = malloc(max(archive.count, 1))!
        archive.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        guard let source = zip_source_buffer_create(copy, zip_uint64_t(archive.count), 1, &error) else {
            free(copy)
            throw PassmintError(.archiveFailed, "libzip could not compress \(name)")
        }
        guard let zip = zip_open_from_source(source, ZIP_RDONLY, &error) else {
            zip_source_free(source)
            throw PassmintError(.archiveFailed, "libzip could not compress \(name)")
        }
        defer { zip_discard(zip) }
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        guard zip_stat_index(zip, 0, 0, &stat) == 0 else { throw PassmintError(.archiveFailed, "libzip could not compress \(name)") }
        guard stat.comp_size < stat.size, let file = zip_fopen_index(zip, 0, zip_flags_t(ZIP_FL_COMPRESSED)) else {
            self.init(copying: bytes, size: bytes.count, crc: stat.crc, method: ZIP_CM_STORE)
            return
        }
        defer { zip_fclose(file) }
        var compressed = [UInt8](repeating: 0, count: Int(stat.comp_size))
        guard ZipArchive.readFully(file, into: &compressed) == compressed.count else {
            throw PassmintError(.archiveFailed, "libzip could not compress \(name)")
        }
        self.init(copying: compressed, size: bytes.count, crc: stat.crc, method: Int32(stat.comp_method))
    }
}
