package import Passmint
package import PassmintStore
import Synchronization

/// The reads devices repeat most — the serial-number poll and the pass row behind the latest-pass endpoint — kept
/// between two changes of the store (see `ReadCache`), and what `DeviceFastPath` answers from memory. A poll is kept
/// while the store's `changeGeneration` stays (registrations change its answer); a pass row while its
/// `passGeneration` stays (only writes to passes change it).
package final class DeviceReadCache: Sendable {
    struct PollKey: Hashable, Sendable {
        var device: String
        var passTypeIdentifier: String
        var since: Int64?
    }

    let store: any PassStore
    /// Bounded in entries: a pass row holds the pass's data (typically under 1 KB), so the rows stay within a few
    /// tens of MB.
    private let polls = ReadCache<PollKey, UpdatedSerials>(limit: 32_768)
    private let passRows = ReadCache<PassKey, DevicePassLookup>(limit: 16_384)
    private let fastPathPolls = Atomic<Int>(0)
    private let fastPathNotModified = Atomic<Int>(0)

    package init(store: any PassStore) { self.store = store }

    /// The serial-number poll: passes of a type this device registered for that changed after `since`.
    package func updatedSerials(device: String, passTypeIdentifier: String, since: Int64?) async throws -> UpdatedSerials {
        let key = PollKey(device: device, passTypeIdentifier: passTypeIdentifier, since: since)
        return try await polls.value(for: key, generation: store.changeGeneration) {
            try await store.updatedSerials(deviceLibraryIdentifier: device, passTypeIdentifier: passTypeIdentifier, updatedSince: since)
        }
    }

    /// A stored pass (or order: `kind`) as devices see it, with its `Last-Modified` text; nil when there is none of that
    /// kind (a pass path naming an order's type knows no order, and the other way round).
    package func devicePass(
        _ kind: WalletWebService.Kind = .pass, passTypeIdentifier: String, serialNumber: String
    ) async throws -> DevicePassView? {
        guard WalletWebService.Kind(typeIdentifier: passTypeIdentifier) == kind else { return nil }
        let key = PassKey(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        return try await passRows.value(for: key, generation: store.passGeneration) {
            guard let row = try await store.document(kind, passTypeIdentifier, serialNumber) else { return .missing }
            return .found(DevicePassView(row))
        }.view
    }

    /// The cached poll answer, without touching the store; nil when it is not cached at the store's generation.
    func cachedUpdatedSerials(device: String, passTypeIdentifier: String, since: Int64?) -> UpdatedSerials? {
        let key = PollKey(device: device, passTypeIdentifier: passTypeIdentifier, since: since)
        return polls.cachedValue(for: key, generation: store.changeGeneration)
    }

    /// The cached pass row, without touching the store; nil when it is not cached at the store's generation (or is an
    /// order's: the fast path answers passes).
    func cachedDevicePass(passTypeIdentifier: String, serialNumber: String) -> DevicePassLookup? {
        guard WalletWebService.Kind(typeIdentifier: passTypeIdentifier) == .pass else { return nil }
        let key = PassKey(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        return passRows.cachedValue(for: key, generation: store.passGeneration)
    }

    /// Requests answered by the fast path (from memory, on the event loop), for the operator and tests.
    package var fastPathAnswers: Int { fastPathPolls.load(ordering: .relaxed) + fastPathNotModified.load(ordering: .relaxed) }

    /// The fast path's answers: serial-number polls, and 304s of the latest-pass endpoint.
    var fastPathCounts: (polls: Int, notModified: Int) {
        (fastPathPolls.load(ordering: .relaxed), fastPathNotModified.load(ordering: .relaxed))
    }

    func countFastPathAnswer(poll: Bool) {
        if poll {
            fastPathPolls.add(1, ordering: .relaxed)
        } else {
            fastPathNotModified.add(1, ordering: .relaxed)
        }
    }
}
