internal import CPassmintZip

/// The `.order` package: a ZIP of the order's files, `order.json`, `manifest.json` (SHA-256 of every file) and the
/// detached `signature`, written by Passmint's own ``ZipWriter``.
enum OrderArchive {
    /// `manifest.json` for an order: every file's path → lowercase hex SHA-256 of its bytes, keys sorted.
    static func manifest(orderJSON: [UInt8], files: [PassFile]) -> [UInt8] {
        var hashes = files.map { ($0.path, Digest.sha256Hex($0.bytes)) }
        hashes.append(("order.json", Digest.sha256Hex(orderJSON)))
        hashes.sort { $0.0 < $1.0 }
        var object = JSONObject()
        for (path, hash) in hashes { object[path] = .string(hash) }
        return JSONWriter.data(.object(object))
    }

    /// The archive: the files (compressed once), then `order.json`, `manifest.json` and the stored `signature`.
    static func make(files: [PassFile], orderJSON: [UInt8], manifest: [UInt8], signature: [UInt8]) throws(PassmintError) -> [UInt8] {
        var writer = ZipWriter(
            capacity: files.reduce(orderJSON.count + manifest.count + signature.count + 512) {
                $0 + $1.compressed.compressedSize + 2 * $1.path.utf8.count + 76
            })
        for file in files { writer.add(file) }
        writer.add(name: "order.json", small: orderJSON, level: 6)
        writer.add(name: "manifest.json", small: manifest, level: 6)
        let crc = signature.withUnsafeBufferPointer { UInt32(cpassmint_crc32($0.baseAddress, $0.count)) }
        signature.withUnsafeBytes { writer.add(name: "signature", method: UInt16(ZIP_CM_STORE), crc: crc, size: signature.count, data: $0) }
        guard writer.fitsWithoutZip64 else {
            throw PassmintError(
                .archiveFailed, "the order has \(writer.count) files or more than 4 GiB: too large for a ZIP archive Wallet reads")
        }
        return writer.finish()
    }
}
