import Foundation
import PassmintTestTraits
import Testing

/// The batch suites compute for long without a suspension point (thousands of rows, archives of 65,536 entries in a
/// debug build), so they run off Swift's cooperative pool (``OffPoolTrait``): on it, two of them held both of its
/// threads and stalled every service test of a whole-suite run for over a minute.
@Suite(.offPool) struct OffPoolTraitTests {
    /// The name of the thread running the caller.
    static func threadName() -> String { Thread.current.name ?? "an unnamed thread" }

    @Test func aSynchronousTestRunsOnAThreadOfItsOwn() {
        #expect(Self.threadName() == OffPoolTrait.threadName)
    }

    @Test func anAsynchronousTestResumesOnAThreadOfItsOwn() async {
        await Task.yield()
        #expect(Self.threadName() == OffPoolTrait.threadName)
    }
}
