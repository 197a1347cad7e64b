import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintPreview

/// The libqrencode wrapper: the modules it returns decode, with an independent decoder (zxing-cpp), to the text.
@Suite(.computeThreads) struct QRCodeTests {
    /// The code drawn as a grey-map image (4 pixels a module, quiet zone of 4 modules), decoded by zxing-cpp.
    static func decode(_ code: QRCode) throws -> [String] {
        let scale = 4
        let side = (code.size + 8) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<code.size {
            for x in 0..<code.size where code.isDark(x: x, y: y) {
                for dy in 0..<scale {
                    for dx in 0..<scale { pixels[((y + 4) * scale + dy) * side + (x + 4) * scale + dx] = 0 }
                }
            }
        }
        let file = TestEnvironment.temporaryFolder("qr").appendingPathComponent("code.pgm")
        try Data(Array("P5\n\(side) \(side)\n255\n".utf8) + pixels).write(to: file)
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Browser/decode_barcodes.py").path
        let result = try TestEnvironment.run("/usr/bin/env", ["python3", script, file.path])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONParser.value(Array(result.stdout.utf8)).arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
    }

    @Test(arguments: [
        "https://passes.example.com/wallet/download/pass.com.example.loyalty/MLC-000123?expires=1800000000&signature=abc",
        "S-1", "Zoë Müller – 会员", String(repeating: "x", count: 1200),
    ])
    func decodesToItsText(_ text: String) throws {
        let code = try QRCode(text)
        #expect(code.size == 17 + 4 * code.version)
        #expect(try Self.decode(code) == [text])
    }

    @Test func theSVGDrawsEveryDarkModuleOnce() throws {
        let code = try QRCode("https://example.com/a")
        let svg = code.svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(code.size + 8) \(code.size + 8)\""))
        // Each run of dark modules is one "h<run>"; the runs add up to the dark modules.
        let runs = svg.split(separator: "h").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        let dark = (0..<code.size).reduce(0) { sum, y in sum + (0..<code.size).filter { code.isDark(x: $0, y: y) }.count }
        #expect(runs.reduce(0, +) == dark)
    }

    @Test func emptyAndOversizedTextsAreRefused() {
        #expect(throws: PassmintError.self) { try QRCode("") }
        #expect(throws: PassmintError.self) { try QRCode(String(repeating: "x", count: 3000), correction: .low) }
    }
}
