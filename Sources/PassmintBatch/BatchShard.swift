import Passmint

/// One part of a batch split across machines (`passmint batch --shard 3/8`): the rows whose serial number hashes to
/// this shard. Every shard reads the whole file and keeps its own rows, so `n` processes started with `0/n` … `n-1/n`
/// (a Kubernetes Indexed Job, a Slurm array, GNU parallel) issue each pass exactly once, and the same serial always
/// lands in the same shard, so duplicates are still caught. A row without a serial (or one that cannot be read) is
/// reported by the shard its row number falls to, so it too is reported once.
public struct BatchShard: Sendable, Hashable, CustomStringConvertible {
    /// 0 ..< count.
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// `"3/8"`: shard 3 of 8, numbered from 0.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether the pass with this serial number is this shard's: FNV-1a (64-bit) of its UTF-8 bytes, modulo the count,
    /// the same on every machine and in every version.
    public func contains(serial: String) -> Bool {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in serial.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return Int(hash % UInt64(count)) == index
    }

    /// Whether a row that has no serial number to hash (unreadable, or the serial missing) is this shard's to report.
    public func contains(row: Int) -> Bool { row % count == index }
}
