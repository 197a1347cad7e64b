import Foundation

/// What a test waits for instead of sleeping: the stand-ins (``MockAPNsServer``, ``WebhookReceiver``), a service's
/// log and a watched process's output ring it when something happened, and a waiting test checks its
/// condition again at each ring. The bound of a wait only keeps a broken test from hanging: it is no timing
/// requirement, and a wait that reaches it returns whatever the condition says then.
public enum TestEvents {
    private final class Bell: @unchecked Sendable {
        // @unchecked: `rings` only under `condition`.
        let condition = NSCondition()
        var rings: UInt64 = 0
    }

    private static let bell = Bell()

    /// How long a wait may last before it gives up, in seconds: a bound against a hang. The whole suite runs its ~850
    /// tests at once on two cores, where a wait that takes a second alone has passed 120 s (a job taken over in
    /// `JobResumeTests`); `scripts/watch-tests.sh` still ends a run in which no test finishes for 12 minutes.
    public static let bound: Double = 300

    /// Something happened: every waiter checks its condition again.
    public static func ring() {
        bell.condition.lock()
        bell.rings &+= 1
        bell.condition.broadcast()
        bell.condition.unlock()
    }

    private static var rings: UInt64 {
        bell.condition.lock()
        defer { bell.condition.unlock() }
        return bell.rings
    }

    /// Blocks until a ring after `seen`, or the deadline; whether it rang.
    private static func ringAfter(_ seen: UInt64, deadline: Date) -> Bool {
        bell.condition.lock()
        defer { bell.condition.unlock() }
        while bell.rings == seen {
            if !bell.condition.wait(until: deadline) { return bell.rings != seen }
        }
        return true
    }

    /// Blocks the calling thread (never call it on the cooperative pool: see `onOwnThread` and the `.offPool` trait)
    /// until `condition` holds, checking it at each ring; whether it held.
    public static func blockingWait(atMost seconds: Double = bound, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let seen = rings
            if condition() { return true }
            if !ringAfter(seen, deadline: deadline) { return condition() }
        }
    }

    /// How often ``wait(atMost:until:)`` checks its condition when nothing rings: what some conditions wait for
    /// rings no bell (a PostgreSQL lock another session waits on, a job finishing on a node without a log hook).
    public static let recheck: Double = 0.05

    /// Suspends until `condition` holds, checking it at each ring and every ``recheck`` seconds; whether it held.
    /// Between checks it waits on a thread of its own, so the cooperative pool stays free.
    public static func wait(atMost seconds: Double = bound, until condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let seen = rings
            if try await condition() { return true }
            guard Date() < deadline else { return false }
            let next = min(deadline, Date().addingTimeInterval(recheck))
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread {
                    _ = ringAfter(seen, deadline: next)
                    continuation.resume()
                }.start()
            }
        }
    }

    /// Runs `operation`, which returns once what it waits for happened (or when cancelled); false when it had not
    /// returned within the bound, and it is then cancelled.
    public static func within(atMost seconds: Double = bound, _ operation: @escaping @Sendable () async -> Void) async -> Bool {
        let alarm = Alarm()
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await operation()
                alarm.stop()
                return true
            }
            group.addTask {
                await withTaskCancellationHandler {
                    let deadline = Date().addingTimeInterval(seconds)
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        Thread {
                            alarm.wait(until: deadline)
                            continuation.resume()
                        }.start()
                    }
                } onCancel: {
                    alarm.stop()
                }
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Goes off at a deadline unless stopped first.
    private final class Alarm: @unchecked Sendable {
        // @unchecked: `stopped` only under `condition`.
        private let condition = NSCondition()
        private var stopped = false

        func stop() {
            condition.lock()
            stopped = true
            condition.broadcast()
            condition.unlock()
        }

        /// Blocks until stopped or the deadline.
        func wait(until deadline: Date) {
            condition.lock()
            defer { condition.unlock() }
            while !stopped && condition.wait(until: deadline) {}
        }
    }
}
