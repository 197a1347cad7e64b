import Foundation
public import Passmint
import Synchronization

/// Reads the images a batch row names in its `image:<slot>` columns (`image:thumbnail@2x` → `photos/zoe.png`, a path
/// relative to the data file's folder). Each file is read, decoded and compressed once however many rows share it (an
/// event's artwork), while the cache stays bounded when every row has its own photo.
public final class BatchImageFiles: Sendable {
    /// Columns whose name starts with this hold an image's file path.
    public static let columnPrefix = "image:"

    /// The folder relative paths start from: the data file's.
    public let folder: String
    private let cache = Mutex<[String: PassFile]>([:])
    private static let cacheLimit = 256

    public init(folder: String) {
        self.folder = folder
    }

    /// The row's images: every `image:` column with a non-empty value. Empty cells keep the template's image.
    ///
    /// - Throws: `PassmintError.Code.invalidImage` naming the column and the file (missing, unreadable, not a PNG,
    ///   not a slot Wallet shows).
    public func images(of values: JSONObject) throws(PassmintError) -> PassImages {
        var files: [(file: PassFile, label: String)] = []
        for member in values where member.key.hasPrefix(Self.columnPrefix) {
            let column = member.key
            guard let relative = member.value.stringValue?.trimmingSpaces, !relative.isEmpty else { continue }
            let key = String(column.dropFirst(Self.columnPrefix.count))
            let label = "\(column) (\(relative))"
            files.append((try file(key: key, relative: relative, label: label), label))
        }
        return files.isEmpty ? .none : try PassImages(files: files)
    }

    private func file(key: String, relative: String, label: String) throws(PassmintError) -> PassFile {
        let path = relative.hasPrefix("/") ? relative : folder + "/" + relative
        let cacheKey = key + "\u{0}" + path
        if let cached = cache.withLock({ $0[cacheKey] }) { return cached }
        guard FileManager.default.fileExists(atPath: path) else {
            throw PassmintError(.invalidImage, "\(label): no such file \(path) (paths are relative to the data file's folder \(folder))")
        }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, what: "image")
        } catch {
            throw PassmintError(.invalidImage, "\(label): \(error.message)")
        }
        let file = try PassImages.file(key: key, bytes: bytes, label: label)
        cache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[cacheKey] = file
        }
        return file
    }
}
