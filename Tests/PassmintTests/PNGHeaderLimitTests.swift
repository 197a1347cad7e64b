import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Synchronization
import Testing

@testable import Passmint

/// A small PNG may declare a huge image (issue 32, item 4: 130 KB declaring 4096×4096 at 16 bits froze the service
/// for 21 s in one job): the header's size is checked against the slot before any pixel is decoded.
@Suite(.computeThreads) struct PNGHeaderLimitTests {
    /// A PNG whose header declares `width`×`height` RGBA at 16 bits a channel, followed by a few bytes of image data.
    static func declaring(width: UInt32, height: UInt32) -> [UInt8] {
        var header: [UInt8] = []
        for value in [width, height] { header += withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        header += [16, 6, 0, 0, 0]  // 16-bit RGBA, deflate, filter 0, not interlaced
        let someData: [UInt8] = [0x78, 0x9C, 0xED, 0xC1, 0x01, 0x0D, 0x00, 0x00, 0x00, 0xC2, 0xA0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + TestPNG.chunk("IHDR", header) + TestPNG.chunk("IDAT", someData)
            + TestPNG.chunk("IEND", [])
    }

    @Test func aHugeDeclaredImageIsRefusedFromItsHeaderWithoutDecoding() throws {
        #expect(PNGInfo.declaredSize(Array(Self.declaring(width: 1, height: 1).prefix(20))) == nil, "a header cut short")
        let counter = PNGDecoder.Counter()
        let bomb = Self.declaring(width: 4096, height: 4096)
        #expect(PNGInfo.declaredSize(bomb)! == (4096, 4096))
        PNGDecoder.$counter.withValue(counter) {
            for key in ["thumbnail@2x", "strip@3x", "icon", "background@2x"] {
                do throws(PassmintError) {
                    _ = try PassImages.file(key: key, bytes: bomb, label: "images.\(key)")
                    Issue.record("\(key): a 4096×4096 image was accepted")
                } catch {
                    #expect(error.message.contains("images.\(key) is 4096×4096 px; \(key).png should be at most"), "\(error.message)")
                    #expect(error.message.contains("read from the PNG header; the image was not decoded"))
                }
            }
        }
        #expect(counter.decodes.load(ordering: .relaxed) == 0, "the decoder was never called")
        // An image within its slot is still decoded whole.
        try PNGDecoder.$counter.withValue(counter) {
            let file = try PassImages.file(key: "thumbnail@2x", bytes: TestPNG.make(width: 180, height: 180), label: "photo")
            #expect(file.png == PNGInfo(width: 180, height: 180))
            // The largest strip of any style (a store card's, 375×144 pt) passes the header check at @3x.
            _ = try PassImages.file(key: "strip@3x", bytes: TestPNG.make(width: 1125, height: 432), label: "strip")
        }
        #expect(counter.decodes.load(ordering: .relaxed) == 2)
    }
}
