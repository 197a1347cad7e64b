import PassmintBatch
import PassmintTestTraits
import Testing

/// The allocator tuning `batch`, `bench` and `serve` apply at start-up.
@Suite(.computeThreads) struct MemoryAllocatorTests {
    @Test func glibcTakesBothSettings() {
        #if canImport(Glibc)
            #expect(MemoryAllocator.keepPassSizedBuffersOffMmap())
        #else
            #expect(!MemoryAllocator.keepPassSizedBuffersOffMmap())
        #endif
    }
}
