import Foundation
public import Passmint
import Synchronization

/// Reads the images a batch row names in its `image:<slot>` columns (`image:thumbnail@2x` → `photos/zoe.png`, a path
/// relative to the data file's folder). Each file is read, decoded and compressed once however many rows share it (an
/// event's artwork), while the cache stays bounded when every row has its own photo.
///
/// A data file comes from anyone, so a cell may name only a regular file inside the data file's folder (after its
/// symbolic links are followed) or inside a folder the run allows (``allowedFolders``, `--images-from`), at most
/// ``maximumBytes`` large by its size on disk, read no further than that: `/dev/zero`, a FIFO, `../secret.png` or an
/// absolute path elsewhere is refused with the cell's column and path before a byte of it is read.
public final class BatchImageFiles: Sendable {
    /// Columns whose name starts with this hold an image's file path.
    public static let columnPrefix = "image:"
    /// The largest image file a cell may name: far above any pass image Wallet shows (a @3x strip is about 1 MB at
    /// most), far below what would hurt a batch.
    public static let maximumBytes = TemplateFileKind.maximumImageBytes

    /// The folder relative paths start from: the data file's.
    public let folder: String
    /// Folders besides ``folder`` that image files may be in (`--images-from`); absolute paths must be in one of them.
    public let allowedFolders: [String]
    private let reader: ImageFileReader
    private let cache = Mutex<[String: PassFile]>([:])
    private static let cacheLimit = 256

    public init(folder: String, allowedFolders: [String] = [], maximumBytes: Int = BatchImageFiles.maximumBytes) {
        self.folder = folder
        self.allowedFolders = allowedFolders
        reader = ImageFileReader(folder: folder, allowedFolders: allowedFolders, maximumBytes: maximumBytes)
    }

    /// The row's images: every `image:` column with a non-empty value. Empty cells keep the template's image.
    ///
    /// - Throws: `PassmintError.Code.invalidImage` naming the column and the file (missing, unreadable, not a PNG,
    ///   not a slot Wallet shows, outside the allowed folders, not a regular file, too large).
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
        let cacheKey = key + "\u{0}" + relative
        if let cached = cache.withLock({ $0[cacheKey] }) { return cached }
        let bytes = try reader.contents(of: relative, label: label)
        let file = try PassImages.file(key: key, bytes: bytes, label: label)
        cache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[cacheKey] = file
        }
        return file
    }
}
