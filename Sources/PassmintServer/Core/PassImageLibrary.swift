import Foundation
import HTTPTypes
package import Passmint
import PassmintBatch
package import PassmintStore
import Synchronization

/// Per-pass images in the service (a member's photo, an event's artwork).
///
/// A stored pass's data names each of its own images by content, under the key its batch column has:
/// `"image:thumbnail@2x": "sha256:<hex>"`. The bytes are stored once however many passes use them, in the
/// transaction of the pass version that names them (`PassEdit.images`, `PassStore.insert(order:images:)`), read
/// back when a pass is rendered, and kept in memory (bounded) after that.
package final class PassImageLibrary: Sendable {
    /// Data keys naming a per-pass image start with this (no placeholder name can hold a `:`).
    package static let keyPrefix = BatchImageFiles.columnPrefix
    /// Their values: the lowercase hex SHA-256 of the image's bytes after this.
    package static let valuePrefix = "sha256:"

    let store: any PassStore
    /// Decoded images by slot and hash, and the bytes they hold; bounded by ``cacheBytes`` (not by count: one image
    /// may be megabytes).
    private let cache = Mutex<(files: [String: PassFile], bytes: Int)>(([:], 0))
    let cacheBytes: Int

    package init(store: any PassStore, cacheBytes: Int = 64 << 20) {
        self.store = store
        self.cacheBytes = cacheBytes
    }

    /// Bytes of images in memory now.
    var cachedBytes: Int { cache.withLock { $0.bytes } }

    /// Images sent with a request, decoded: the data members that name them, and the images to store.
    package struct Upload: Sendable {
        /// `image:<slot>` → `sha256:<hex>`, or null to drop the pass's own image of that slot (the template's shows).
        package var members: JSONObject
        package var images: [StoredImage]
    }

    /// Decodes `"images": {"thumbnail@2x": "<base64 PNG>", "strip": null}` (``PassImages/uploaded(_:path:)``) on
    /// `CPUWork`'s threads: 400 for a value of the wrong shape, 422 for an image its slot may not have.
    package func decode(_ images: JSONObject, path: String = "images") async throws(ServiceFailure) -> Upload {
        let uploaded = try await CPUWork.run { () throws(ServiceFailure) in
            do throws(PassmintError) {
                return try PassImages.uploaded(images, path: path)
            } catch {
                throw error.code == .invalidImage ? .unprocessable(error.message) : .badRequest(error.message)
            }
        }
        var upload = Upload(members: JSONObject(), images: [])
        for image in uploaded {
            guard let file = image.file else {
                upload.members[Self.keyPrefix + image.key] = .null
                continue
            }
            let sha256 = Digest.sha256Hex(file.bytes)
            remember(file, sha256: sha256)
            upload.members[Self.keyPrefix + image.key] = .string(Self.valuePrefix + sha256)
            upload.images.append(StoredImage(sha256: sha256, bytes: file.bytes))
        }
        return upload
    }

    /// The pass's own images that `data` names, from memory or the store.
    func images(in data: JSONObject) async throws(ServiceFailure) -> PassImages {
        var files: [(file: PassFile, label: String)] = []
        for member in data where member.key.hasPrefix(Self.keyPrefix) {
            let key = String(member.key.dropFirst(Self.keyPrefix.count))
            guard let value = member.value.stringValue, value.hasPrefix(Self.valuePrefix) else { continue }
            let sha256 = String(value.dropFirst(Self.valuePrefix.count))
            let label = "images.\(key)"  // as the issuing API names it
            files.append((try await file(key: key, sha256: sha256, label: label), label))
        }
        guard !files.isEmpty else { return .none }
        do {
            return try PassImages(files: files)
        } catch {
            throw .unprocessable(error.message)
        }
    }

    private func file(key: String, sha256: String, label: String) async throws(ServiceFailure) -> PassFile {
        let cacheKey = key + "\u{0}" + sha256
        if let cached = cache.withLock({ $0.files[cacheKey] }) { return cached }
        let stored: [UInt8]?
        do {
            stored = try await store.image(sha256: sha256)
        } catch {
            throw ServiceFailure(.serviceUnavailable, "cannot read image \(sha256) from the store: try again")
        }
        guard let bytes = stored else {
            throw .unprocessable("\(label) names image sha256:\(sha256), which is not stored: send the image again")
        }
        let file = try await Self.file(key: key, bytes: bytes, label: label)
        remember(file, sha256: sha256)
        return file
    }

    /// Checks and decodes one image on ``CPUWork``'s threads (a 2,000 px PNG takes tens of milliseconds).
    private static func file(key: String, bytes: [UInt8], label: String) async throws(ServiceFailure) -> PassFile {
        try await CPUWork.run { () throws(ServiceFailure) in
            do throws(PassmintError) {
                return try PassImages.file(key: key, bytes: bytes, label: label)
            } catch {
                throw .unprocessable(error.message)
            }
        }
    }

    private func remember(_ file: PassFile, sha256: String) {
        let slot = String(file.path.dropLast(4))  // thumbnail@2x.png → thumbnail@2x
        let size = file.bytes.count + file.compressed.compressedSize
        guard size <= cacheBytes else { return }
        cache.withLock { cache in
            let key = slot + "\u{0}" + sha256
            guard cache.files[key] == nil else { return }
            if cache.bytes + size > cacheBytes { cache = ([:], 0) }  // start again: simple, and bounded
            cache.files[key] = file
            cache.bytes += size
        }
    }
}
