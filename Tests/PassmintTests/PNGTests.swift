import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

@Suite(.computeThreads) struct PNGTests {
    static func png(width: Int, height: Int) -> [UInt8] { TestPNG.make(width: width, height: height) }

    @Test func readsPixelSize() throws {
        let info = try PNGInfo(bytes: Self.png(width: 114, height: 114), file: "icon@3x.png")
        #expect(info == PNGInfo(width: 114, height: 114))
    }

    @Test func rejectsNonPNGNamingTheFile() {
        do {
            _ = try PNGInfo(bytes: Array("GIF89a and more bytes here!!".utf8), file: "logo.png")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidImage)
            #expect(error.message.contains("logo.png"))
        }
    }

    /// `message` of the error `PNGInfo` throws for `bytes`, or nil when it accepts them.
    func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try PNGInfo(bytes: bytes, file: "strip@2x.png")
            return nil
        } catch {
            return error.message
        }
    }

    /// A copy of a valid PNG with the IHDR chunk's data replaced (and its CRC made right again).
    func withHeader(width: UInt32, height: UInt32, depth: UInt8 = 8, colour: UInt8 = 6) -> [UInt8] {
        var header: [UInt8] = []
        for value in [width, height] {
            header += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        header += [depth, colour, 0, 0, 0]
        let valid = TestPNG.makeStored(width: 4, height: 4)
        return Array(valid[0..<8]) + TestPNG.chunk("IHDR", header) + Array(valid[33...])
    }

    @Test func decodesAWholeImage() throws {
        #expect(refusal(Self.png(width: 750, height: 288)) == nil)
        let template = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates/Loyalty.pass/strip@2x.png")
        let bytes = try FileIO.read(template.path, what: "image")
        #expect(try PNGInfo(bytes: bytes, file: "strip@2x.png") == PNGInfo(width: 750, height: 288))
    }

    @Test func truncatedFileIsRefusedNamingIt() throws {
        let png = Self.png(width: 40, height: 40)
        for length in [33, png.count / 2, png.count - 12] {  // header only; cut in the image data; IEND missing
            let message = try #require(refusal(Array(png.prefix(length))), "a \(length)-byte prefix was accepted")
            #expect(message.contains("strip@2x.png") && message.contains("damaged"), "\(message)")
        }
    }

    @Test func damagedChunksAndImageDataAreRefused() throws {
        let png = TestPNG.makeStored(width: 40, height: 40)
        var badHeaderCRC = png
        badHeaderCRC[30] ^= 0xFF
        #expect(refusal(badHeaderCRC) != nil)
        // A flipped byte inside the image data, with the chunk's CRC made right again: only the zlib stream is wrong.
        let idatStart = 33 + 8
        let idatLength = Int(png[33]) << 24 | Int(png[34]) << 16 | Int(png[35]) << 8 | Int(png[36])
        var data = Array(png[idatStart..<(idatStart + idatLength)])
        data[data.count - 2] ^= 0x55  // the Adler-32 of the zlib stream
        let badZlib = Array(png[0..<33]) + TestPNG.chunk("IDAT", data) + TestPNG.chunk("IEND", [])
        #expect(refusal(badZlib) != nil)
        var badFilter = Array(png[idatStart..<(idatStart + idatLength)])
        badFilter[7] = 9  // the first row's filter type (after the zlib and stored-block headers): only 0-4 exist
        #expect(refusal(Array(png[0..<33]) + TestPNG.chunk("IDAT", badFilter) + TestPNG.chunk("IEND", [])) != nil)
    }

    @Test func impossibleOrHugeHeadersAreRefused() throws {
        #expect(refusal(withHeader(width: 4, height: 4, depth: 7)) != nil)
        #expect(refusal(withHeader(width: 4, height: 4, colour: 5)) != nil)
        #expect(refusal(withHeader(width: 4_294_967_295, height: 4)) != nil)
        let huge = try #require(refusal(withHeader(width: 60_000, height: 60_000)))
        #expect(huge.contains("8192×8192"), "\(huge)")
    }

    @Test func parsesImageNames() {
        #expect(ImageName(path: "logo@2x.png") == ImageName(path: "logo@2x.png"))
        let localized = ImageName(path: "zh-Hans.lproj/strip@3x.png")
        #expect(localized?.localization == "zh-Hans")
        #expect(localized?.name == "strip")
        #expect(localized?.scale == 3)
        #expect(ImageName(path: "icon.png")?.scale == 1)
        #expect(ImageName(path: "pass.json") == nil)
        #expect(ImageName(path: "a/b/c.png") == nil)
    }
}
