/// How much an archive may unpack to, checked from its central directory before anything is inflated, so that a
/// hostile file (a zip bomb, a forged size) costs neither memory nor time.
public struct ZipLimits: Sendable {
    /// Entries (files and folders) in the archive.
    public var maximumEntries: Int
    /// Uncompressed bytes of one entry.
    public var maximumEntryBytes: Int
    /// Uncompressed bytes of all entries together.
    public var maximumTotalBytes: Int
    /// Uncompressed ÷ compressed size of an entry larger than 1 MB uncompressed: deflate reaches 1,032 on runs of
    /// one byte, real images and JSON stay far below 100.
    public var maximumRatio: Int

    public init(maximumEntries: Int, maximumEntryBytes: Int, maximumTotalBytes: Int, maximumRatio: Int) {
        self.maximumEntries = maximumEntries
        self.maximumEntryBytes = maximumEntryBytes
        self.maximumTotalBytes = maximumTotalBytes
        self.maximumRatio = maximumRatio
    }

    /// A `.pkpass`: Wallet's passes are a few MB at most (images at @3x included); 64 MB in all leaves room for
    /// every localization's images without letting a file claim gigabytes.
    public static let pass = ZipLimits(maximumEntries: 2_000, maximumEntryBytes: 32 << 20, maximumTotalBytes: 64 << 20, maximumRatio: 100)
    /// A `.pkpasses` bundle: its passes, stored, up to the bundle's own 150 MB limit.
    public static let bundle = ZipLimits(
        maximumEntries: 1_000, maximumEntryBytes: 64 << 20, maximumTotalBytes: PassBundle.maximumBytes, maximumRatio: 100)

    /// The limit `entries` (name, uncompressed size, compressed size) break, or the name they hold twice, as a sentence
    /// naming the entry, or nil.
    func violation(of entries: [(name: String, size: Int, compressedSize: Int)], archive: String) -> String? {
        if let duplicate = ZipEntryNames.duplicate(in: entries.map(\.name), archive: archive) { return duplicate }
        if entries.count > maximumEntries {
            return "\(archive) has \(entries.count) entries, more than the \(maximumEntries) a pass may have"
        }
        var total = 0
        for entry in entries {
            if entry.size > maximumEntryBytes {
                return "\(archive): entry \(entry.name) unpacks to \(PassBundle.megabytes(entry.size)), more than the "
                    + "\(PassBundle.megabytes(maximumEntryBytes)) one entry may hold"
            }
            if entry.size > 1 << 20, entry.size > entry.compressedSize.multipliedReportingOverflow(by: maximumRatio).partialValue {
                return "\(archive): entry \(entry.name) unpacks to \(PassBundle.megabytes(entry.size)) from "
                    + "\(entry.compressedSize) bytes, a ratio over \(maximumRatio):1 that only a zip bomb has"
            }
            total += entry.size
            if total > maximumTotalBytes {
                return "\(archive) unpacks to more than \(PassBundle.megabytes(maximumTotalBytes)) in all (at \(entry.name)); "
                    + "Wallet's passes are a few MB"
            }
        }
        return nil
    }
}
