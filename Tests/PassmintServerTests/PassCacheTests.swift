import NIOCore
import PassmintStore
import Testing

@testable import PassmintServer

/// The signed-pass cache: one version per pass, bounded in bytes, oldest out first.
@Suite struct PassCacheTests {
    func pass(_ serial: String, tag: Int64) -> StoredPass {
        StoredPass(
            passTypeIdentifier: "pass.test", serialNumber: serial, authenticationToken: "token-0123456789abcdef", template: "T",
            dataJSON: "{}", updateTag: tag)
    }

    @Test func keepsOneVersionPerPass() {
        var cache = PassCache(byteLimit: 1_000)
        cache.store(ByteBuffer(bytes: [1, 1, 1]), for: pass("A", tag: 1))
        #expect(cache.bytes(for: pass("A", tag: 1)) == ByteBuffer(bytes: [1, 1, 1] as [UInt8]))
        #expect(cache.bytes(for: pass("A", tag: 2)) == nil, "another tag is a miss")
        cache.store(ByteBuffer(bytes: [2, 2]), for: pass("A", tag: 2))
        #expect(cache.bytes(for: pass("A", tag: 1)) == nil, "the new version replaces the old one")
        #expect(cache.bytes(for: pass("A", tag: 2)) == ByteBuffer(bytes: [2, 2] as [UInt8]))
        #expect(cache.count == 1 && cache.byteCount == 2)
        cache.store(ByteBuffer(bytes: [9]), for: pass("A", tag: 1))
        #expect(
            cache.bytes(for: pass("A", tag: 2)) == ByteBuffer(bytes: [2, 2] as [UInt8]),
            "an older version built late does not replace a newer one")
    }

    @Test func staysWithinItsByteLimitOldestFirst() {
        var cache = PassCache(byteLimit: 100)
        for index in 0..<10 { cache.store(ByteBuffer(bytes: [UInt8](repeating: 0, count: 30)), for: pass("P\(index)", tag: 1)) }
        #expect(cache.byteCount <= 100)
        #expect(cache.count == 3)
        #expect((7..<10).allSatisfy { cache.bytes(for: pass("P\($0)", tag: 1)) != nil }, "the newest stay")
        #expect(cache.bytes(for: pass("P6", tag: 1)) == nil)

        // A pass evicted and stored again is kept as the newest.
        cache.store(ByteBuffer(bytes: [UInt8](repeating: 1, count: 30)), for: pass("P0", tag: 2))
        cache.store(ByteBuffer(bytes: [UInt8](repeating: 1, count: 30)), for: pass("P10", tag: 1))
        #expect(cache.bytes(for: pass("P0", tag: 2)) != nil)
        #expect(cache.bytes(for: pass("P10", tag: 1)) != nil)
        #expect(cache.byteCount <= 100)

        cache.store(ByteBuffer(bytes: [UInt8](repeating: 0, count: 101)), for: pass("Huge", tag: 1))
        #expect(cache.bytes(for: pass("Huge", tag: 1)) == nil, "a pass larger than the whole cache is not kept")
        #expect(cache.count == 3)
    }

    @Test func manyPassesKeepTheBookkeepingSmall() {
        var cache = PassCache(byteLimit: 64)
        for index in 0..<20_000 { cache.store(ByteBuffer(bytes: [UInt8(index % 256)]), for: pass("S\(index)", tag: Int64(index))) }
        #expect(cache.count == 64 && cache.byteCount == 64)
        #expect(cache.bytes(for: pass("S19999", tag: 19_999)) == ByteBuffer(bytes: [UInt8(19_999 % 256)] as [UInt8]))
        #expect(cache.bytes(for: pass("S19935", tag: 19_935)) == nil)
    }
}
