import Foundation

/// What bulk changes (``UpdateJob``) may take of the node: the bytes of one value, of a chunk of lines in memory, of
/// failures on disk, and of the disk itself, so that a hostile or careless upload cannot starve the store.
public struct JobLimits: Sendable {
    /// The longest text value a pass's data may hold, in UTF-8 bytes (`--max-value-size`): a pass field is never
    /// megabytes. A longer one is refused, naming the line (or request) and the key.
    public var maximumValueBytes = 64 * 1024
    /// Lines of an upload applied per saved chunk, and the most bytes of lines a chunk holds in memory (a chunk ends
    /// at whichever comes first; a line longer than the byte bound is a chunk of its own).
    public var chunkLines = 1000
    public var chunkBytes = 8 << 20
    /// Lines of a chunk applied at once (different passes): the changes waiting together commit together, so more
    /// lines in flight make fewer, larger transactions.
    public var linesInFlight = 256
    /// Failures written to a job's failures file (`--job-failures-kept`); the rest are counted, not kept.
    public var failuresKept = 10_000
    /// Failures kept with the job's state, answered by `GET /api/v1/jobs/{id}` without reading the failures file.
    public var failuresInState = 100
    /// How long an upload is kept after its job ended (`--job-upload-retention`); zero: removed when the job ends.
    public var uploadRetention: Duration = .zero
    /// Free bytes the jobs folder's disk keeps for the store (`--jobs-disk-reserve`): below it uploads are refused
    /// (507) and a running upload is cut, before the store's writes could fail.
    public var diskReserve: Int64 = 256 << 20
    /// Bytes of decoded per-pass images kept in memory (``PassImageLibrary``); beyond it the cache starts again.
    public var imageCacheBytes = 64 << 20
    /// Measures the free bytes of the disk holding a folder (nil: unknown, taken as enough); tests give their own.
    public var freeSpace: @Sendable (String) -> Int64? = JobFolder.statvfsFreeSpace

    public init() {}

    /// `65536`, `64k`, `16m` or `2g`: a whole number of bytes, or of KiB, MiB or GiB; nil when it is not.
    public static func bytes(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30]
        let unit = text.last.flatMap { units[Character($0.lowercased())] }
        guard let number = Int64(unit == nil ? Substring(text) : text.dropLast()), number >= 0 else { return nil }
        let (value, overflow) = number.multipliedReportingOverflow(by: unit ?? 1)
        return overflow ? nil : value
    }
}
