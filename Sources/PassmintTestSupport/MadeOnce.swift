import Dispatch
import Synchronization

/// Values made once per key by the first caller that asks for one (a development chain made by a script), so that
/// callers asking for another key never wait: a value being made holds up only the callers of that same key. One
/// lock over every key, held for the whole script, once stopped the whole test process: every test asking for the
/// usual chain, even one already made, waited on a cooperative thread while a rare chain was being made.
public final class MadeOnce<Value: Sendable>: Sendable {
    /// One key's value: made, or being made (its waiters sleep on `ready`).
    private final class Slot: Sendable {
        let ready = DispatchSemaphore(value: 0)
        let result = Mutex<Result<Value, any Error>?>(nil)
    }

    private let slots = Mutex<[String: Slot]>([:])

    public init() {}

    /// The value of `key`, made by `make` when no caller has made it yet. A value that failed to be made is made again
    /// by the next caller.
    public func value(_ key: String, make: () throws -> Value) throws -> Value {
        let (slot, isMaker) = slots.withLock { slots -> (Slot, Bool) in
            if let slot = slots[key] { return (slot, false) }
            let slot = Slot()
            slots[key] = slot
            return (slot, true)
        }
        if isMaker {
            let result = Result { try make() }
            if case .failure = result { slots.withLock { _ = $0.removeValue(forKey: key) } }
            slot.result.withLock { $0 = result }
            slot.ready.signal()
            return try result.get()
        }
        if let result = slot.result.withLock({ $0 }) { return try result.get() }
        slot.ready.wait()
        slot.ready.signal()  // the next waiter of this key
        return try slot.result.withLock { $0 }!.get()
    }
}
