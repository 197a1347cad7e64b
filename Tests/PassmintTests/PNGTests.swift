import Testing
@testable import Passmint

@Suite struct PNGTests {
    static func png(width: Int, height: Int) -> [UInt8] {
        var bytes = PNGInfo.signature + [0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [width, height] { bytes += [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        return bytes + [8, 6, 0, 0, 0, 0, 0, 0, 0]
    }

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
