import Foundation
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintPreview

/// zint draws every classic Wallet barcode format in-process (the browser tests scan them).
@Suite(.computeThreads) struct BarcodeSymbolTests {
    @Test(arguments: [Barcode.Format.qr, .pdf417, .aztec, .code128])
    func everyClassicFormatDraws(format: Barcode.Format) throws {
        let symbol = try BarcodeSymbol(format: format, message: "PASSMINT-0042")
        #expect(!symbol.bars.isEmpty)
        #expect(symbol.width > 0 && symbol.height > 0)
        #expect(symbol.isRectangular == [.pdf417, .code128].contains(format))
        let svg = symbol.svg(title: "Barcode <1>")
        #expect(svg.hasPrefix("<svg "))
        #expect(svg.contains("<title>Barcode &lt;1&gt;</title>"))
        #expect(svg.contains("<path d=\"M"))
    }

    @Test func theMessageIsWrittenInItsEncoding() throws {
        #expect(try BarcodeSymbol.bytes(of: "Zoë", encoding: "iso-8859-1") == [0x5A, 0x6F, 0xEB])
        #expect(try BarcodeSymbol.bytes(of: "Zoë", encoding: "UTF-8") == [0x5A, 0x6F, 0xC3, 0xAB])
        #expect(throws: PassmintError.self) { try BarcodeSymbol.bytes(of: "東京", encoding: "iso-8859-1") }
        #expect(throws: PassmintError.self) { try BarcodeSymbol.bytes(of: "A", encoding: "shift_jis") }
    }

    @Test func whatCannotBeDrawnIsATypedError() {
        #expect(throws: PassmintError.self) { try BarcodeSymbol(format: .qr, message: "") }
        #expect(throws: PassmintError.self) { try BarcodeSymbol(format: .ean13, message: "not digits") }
        #expect(throws: PassmintError.self) { try BarcodeSymbol(format: .qr, message: String(repeating: "x", count: 8000)) }
    }

    @Test func theIOS27FormatsDrawToo() throws {
        #expect(try BarcodeSymbol(format: .ean13, message: "400638133393").isLinear)
        #expect(try BarcodeSymbol(format: .code39, message: "ABC-123").isRectangular)
    }
}
