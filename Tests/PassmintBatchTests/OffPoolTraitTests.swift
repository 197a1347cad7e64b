import Foundation
import PassmintTestTraits
import Testing

/// The traits that keep long tests off Swift's cooperative pool (``OffPoolTrait``): the batch suites compute for long
/// without a suspension point (thousands of rows, archives of 65,536 entries in a debug build), and on the pool two of
/// them held both of its threads and stalled every service test of a whole-suite run for over a minute.
enum OffPoolTraitTests {
    /// The name of the thread running the caller.
    static func threadName() -> String { Thread.current.name ?? "an unnamed thread" }

    @Suite(.computeThreads) struct ComputeThreads {
        @Test func aSynchronousTestRunsOnThem() {
            #expect(OffPoolTraitTests.threadName() == OffPoolTrait.threadName)
        }

        @Test func anAsynchronousTestResumesOnThem() async {
            await Task.yield()
            #expect(OffPoolTraitTests.threadName() == OffPoolTrait.threadName)
        }
    }

    @Suite(.offPool) struct ThreadPerJob {
        @Test func aSynchronousTestRunsOnAThreadOfItsOwn() {
            #expect(OffPoolTraitTests.threadName() == OffPoolTrait.threadName)
        }

        @Test func anAsynchronousTestResumesOnAThreadOfItsOwn() async {
            await Task.yield()
            #expect(OffPoolTraitTests.threadName() == OffPoolTrait.threadName)
        }
    }
}
