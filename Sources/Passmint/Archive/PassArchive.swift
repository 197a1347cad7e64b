internal import CPassmintZip
import Foundation

/// A signed pass's `.pkpass` archive as Passmint assembles it: the entries of the template's files, which begin every
/// pass of the template and are shared by all of them (``ZipPrefix``, built once, never copied), then this pass's own
/// bytes (its other files, `pass.json`, `manifest.json`, `signature`, the central directory and the end record: a few
/// KB). A file gets both with one `writev` (``FileIO``); ``bytes`` joins them when one buffer is needed.
package struct PassArchive: Sendable {
    /// The shared first entries, when the pass begins with them.
    let prefix: ZipPrefix?
    /// Everything after the prefix.
    let tail: [UInt8]

    /// `pass.json` and `manifest.json` are deflated at this zlib level (0: stored). Stored: deflating their few KB
    /// cost 25–35 µs of CPU per pass (level 6; 15–25 at level 1), about a tenth of the signature, to save 1.8 KB of a
    /// 154 KB pass (BENCHMARKS.md).
    static let jsonLevel: Int32 = 0

    /// Bytes in the archive.
    package var count: Int { (prefix?.local.count ?? 0) + tail.count }

    /// The whole archive in one buffer.
    package var bytes: [UInt8] {
        guard let prefix, !prefix.local.isEmpty else { return tail }
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        bytes += prefix.local
        bytes += tail
        return bytes
    }

    /// Lowercase hex SHA-256 of the archive, continuing from the prefix's hash state.
    package func sha256Hex() -> String {
        guard let prefix, !prefix.local.isEmpty else { return Digest.sha256Hex(tail) }
        return prefix.sha256?.sha256Hex(continuingWith: tail) ?? Digest.sha256Hex(bytes)
    }

    /// The archive's CRC-32 (as a stored entry of another archive needs it), from the prefix's.
    package var crc32: UInt32 {
        let tailCRC = tail.withUnsafeBufferPointer { cpassmint_crc32($0.baseAddress, $0.count) }
        guard let prefix else { return UInt32(tailCRC) }
        return UInt32(cpassmint_crc32_combine(UInt(prefix.crc), tailCRC, tail.count))
    }

    /// Calls `body` with the archive's buffers, in order.
    package func withBuffers<R>(_ body: ([UnsafeRawBufferPointer]) -> R) -> R {
        tail.withUnsafeBytes { tailBytes in
            guard let prefix else { return body([tailBytes]) }
            return prefix.local.withUnsafeBytes { body([$0, tailBytes]) }
        }
    }

    /// Assembles a pass or an order: `files` (those `prefix` begins with are not copied), then the document's JSON
    /// (`pass.json` or `order.json`) and `manifest.json` (deflated at `level` when that makes them smaller) and the
    /// stored `signature`.
    ///
    /// - Throws: ``PassmintError/Code/archiveFailed`` when the package needs ZIP64 (65,535 entries or 4 GiB).
    static func make(
        prefix: ZipPrefix? = nil, files: [PassFile], json: (name: String, bytes: [UInt8]), manifest: [UInt8], signature: [UInt8],
        level: Int32 = jsonLevel
    ) throws(PassmintError) -> PassArchive {
        let shared = prefix.flatMap { $0.begins(files) ? $0 : nil }
        let rest = files.dropFirst(shared?.files.count ?? 0)
        var capacity = (shared?.central.count ?? 0) + json.bytes.count + manifest.count + signature.count + 3 * 120 + 22
        for file in rest { capacity += file.compressed.compressedSize + 2 * file.path.utf8.count + 76 }
        var writer = ZipWriter(base: shared?.local.count ?? 0, count: shared?.files.count ?? 0, capacity: capacity)
        for file in rest { writer.add(file) }
        writer.add(name: json.name, small: json.bytes, level: level)
        writer.add(name: "manifest.json", small: manifest, level: level)
        let signatureCRC = signature.withUnsafeBufferPointer { UInt32(cpassmint_crc32($0.baseAddress, $0.count)) }
        signature.withUnsafeBytes {
            writer.add(name: "signature", method: UInt16(ZIP_CM_STORE), crc: signatureCRC, size: signature.count, data: $0)
        }
        guard writer.fitsWithoutZip64 else {
            throw PassmintError(
                .archiveFailed,
                "the \(json.name.dropLast(5)) has \(writer.count) files or more than 4 GiB: too large for a ZIP archive Wallet reads")
        }
        return PassArchive(prefix: shared, tail: writer.finish(leadingCentral: shared?.central ?? []))
    }

    /// `manifest.json`: every file's path → the lowercase hex digest of its bytes (SHA-1 for a pass, SHA-256 for an
    /// order), keys sorted.
    static func manifest(_ hashes: [(path: String, hash: String)]) -> [UInt8] {
        var object = JSONObject()
        for (path, hash) in hashes.sorted(by: { $0.path < $1.path }) { object[path] = .string(hash) }
        return JSONWriter.data(.object(object))
    }
}

/// The entries of a template's files that begin every pass of the template: their local headers and compressed data
/// in one buffer, their central directory records, and that buffer's CRC-32 and SHA-256 state. Built once per
/// template; immutable and shared between threads.
final class ZipPrefix: Sendable {
    /// The files whose entries these are, in order.
    let files: [PassFile]
    /// Their local headers and data: the first bytes of every archive that begins with them.
    let local: [UInt8]
    /// Their central directory records.
    let central: [UInt8]
    /// CRC-32 of ``local``.
    let crc: UInt32
    /// SHA-256 state after ``local``.
    let sha256: PrefixedSHA256?

    init(files: [PassFile]) {
        var writer = ZipWriter(capacity: files.reduce(0) { $0 + $1.compressed.compressedSize + $1.path.utf8.count + 30 })
        for file in files { writer.add(file) }
        self.files = files
        local = writer.local
        central = writer.central
        crc = local.withUnsafeBufferPointer { UInt32(cpassmint_crc32($0.baseAddress, $0.count)) }
        sha256 = PrefixedSHA256(prefix: local)
    }

    /// Whether `files` begin with this prefix's files: the same paths and the same compressed data.
    func begins(_ files: [PassFile]) -> Bool {
        guard files.count >= self.files.count else { return false }
        for (mine, theirs) in zip(self.files, files) where mine.compressed !== theirs.compressed || mine.path != theirs.path {
            return false
        }
        return true
    }
}

extension ZipWriter {
    /// Adds a pass file's entry: its data compressed once, as it is.
    mutating func add(_ file: PassFile) {
        let data = file.compressed
        add(
            name: file.path, method: UInt16(data.method), crc: data.crc, size: data.size,
            data: UnsafeRawBufferPointer(start: data.pointer, count: data.compressedSize))
    }
}
