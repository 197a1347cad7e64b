import NIOCore
import PassmintStore

/// Signed pass bytes: one version per pass (the newest tag stored), bounded in bytes; the passes stored longest ago
/// go first. An update replaces the pass's old bytes instead of leaving them to age out.
struct PassCache {
    struct Key: Hashable {
        var passTypeIdentifier: String
        var serialNumber: String

        init(_ pass: StoredPass) {
            passTypeIdentifier = pass.passTypeIdentifier
            serialNumber = pass.serialNumber
        }
    }
    private struct Entry {
        var updateTag: Int64
        var bytes: ByteBuffer
    }
    /// The most bytes kept; a single pass larger than this is not kept.
    let byteLimit: Int
    private(set) var byteCount = 0
    private var entries: [Key: Entry] = [:]
    /// Keys in the order they were first stored; those before `head` are evicted (a key stored again after its
    /// eviction is appended again).
    private var order: [Key] = []
    private var head = 0

    init(byteLimit: Int) { self.byteLimit = byteLimit }

    var count: Int { entries.count }

    /// The bytes of `pass` at its update tag, if they are kept.
    func bytes(for pass: StoredPass) -> ByteBuffer? {
        guard let entry = entries[Key(pass)], entry.updateTag == pass.updateTag else { return nil }
        return entry.bytes
    }

    /// Keeps the bytes of `pass` at its update tag, unless a newer tag of the pass is already kept.
    mutating func store(_ bytes: ByteBuffer, for pass: StoredPass) {
        guard bytes.readableBytes <= byteLimit else { return }
        let key = Key(pass)
        if let old = entries[key] {
            guard old.updateTag <= pass.updateTag else { return }
            byteCount -= old.bytes.readableBytes
        } else {
            order.append(key)
        }
        entries[key] = Entry(updateTag: pass.updateTag, bytes: bytes)
        byteCount += bytes.readableBytes
        while byteCount > byteLimit, head < order.count {
            if let evicted = entries.removeValue(forKey: order[head]) { byteCount -= evicted.bytes.readableBytes }
            head += 1
        }
        if head > 1024, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
