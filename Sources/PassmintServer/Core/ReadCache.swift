import Synchronization

/// Values kept while a generation stays the same. Answers of store reads are kept at the store's
/// `PassStore.changeGeneration`: devices poll far more often than passes change, so the serial-number poll and the 304
/// of the latest-pass endpoint are answered from memory between changes, and any commit to the store empties it in
/// effect (entries of an older generation are never served). A value that never goes stale (what a template version
/// makes) is kept at one fixed generation. Bounded: past `limit` entries it starts over.
final class ReadCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var generation: UInt64
        var value: Value
    }
    private let entries = Mutex<[Key: Entry]>([:])
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// The value cached at `generation`, if there is one (never loads).
    func cachedValue(for key: Key, generation: UInt64?) -> Value? {
        guard let generation, let entry = entries.withLock({ $0[key] }), entry.generation == generation else { return nil }
        return entry.value
    }

    /// The value cached at `generation`, or the one `load` makes (cached when `generation` is not nil).
    ///
    /// `generation` must be read before `load` runs: a change committed during `load` then makes the entry stale.
    func value<Failure: Error>(
        for key: Key, generation: UInt64?, load: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        guard let generation else { return try await load() }
        if let entry = entries.withLock({ $0[key] }), entry.generation == generation { return entry.value }
        let value = try await load()
        entries.withLock { entries in
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(generation: generation, value: value)
        }
        return value
    }
}
