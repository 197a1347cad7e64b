import Passmint
import Synchronization

/// Asks a running batch to stop after the passes in flight (what SIGINT does).
public final class BatchStopSignal: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    public func stop() { flag.store(true, ordering: .relaxed) }
    public var isStopped: Bool { flag.load(ordering: .relaxed) }
}
