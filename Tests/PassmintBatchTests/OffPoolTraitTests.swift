import Foundation
import PassmintTestTraits
import Testing

/// The traits that keep long tests off Swift's cooperative pool (``OffPoolTrait``): the batch suites compute for long
/// without a suspension point (thousands of rows, archives of 65,536 entries in a debug build), and on the pool two of
/// them held both of its threads and stalled every service test of a whole-suite run for over a minute.
enum OffPoolTraitTests {
    @Suite(.computeThreads) struct ComputeThreads {
        @Test func aSynchronousTestRunsOnThem() {
            #expect(OffPoolTrait.isCurrentThreadOffPool)
        }

        @Test func anAsynchronousTestResumesOnThem() async {
            await Task.yield()
            #expect(OffPoolTrait.isCurrentThreadOffPool)
        }
    }

    @Suite(.offPool) struct ThreadPerJob {
        @Test func aSynchronousTestRunsOnAThreadOfItsOwn() {
            #expect(OffPoolTrait.isCurrentThreadOffPool)
        }

        @Test func anAsynchronousTestResumesOnAThreadOfItsOwn() async {
            await Task.yield()
            #expect(OffPoolTrait.isCurrentThreadOffPool)
        }
    }
}
