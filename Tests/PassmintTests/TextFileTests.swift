import Foundation
import Passmint
import PassmintTestSupport
import PassmintTestTraits
import Testing

/// Small text files read as Windows and Mac programs save them (issue 40): a byte order mark, UTF-16, CRLF and CR
/// line ends; bounded, so `/dev/zero` given by mistake costs nothing.
@Suite(.computeThreads) struct TextFileTests {
    func file(_ bytes: [UInt8]) throws -> String {
        let path = TestEnvironment.temporaryFolder("text").appendingPathComponent("file.txt").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func utf16(_ text: String, littleEndian: Bool) -> [UInt8] {
        var bytes: [UInt8] = littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
        for unit in text.utf16 {
            bytes += littleEndian ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        return bytes
    }

    @Test func byteOrderMarksUTF16AndLineEndsBecomePlainUTF8() throws {
        let expected = Array("Name=memberName\nPunkte=points\nZoë 🎉\n".utf8)
        let windows = "Name=memberName\r\nPunkte=points\r\nZoë 🎉\r\n"
        for bytes in [
            [0xEF, 0xBB, 0xBF] + Array(windows.utf8), Array("Name=memberName\rPunkte=points\rZoë 🎉\r".utf8),
            utf16(windows, littleEndian: true), utf16(windows, littleEndian: false), expected,
        ] {
            #expect(try FileIO.readText(try file(bytes), what: "mapping file") == expected, "\(bytes.prefix(8))")
        }
    }

    @Test func brokenUTF16AndOversizedFilesAreRefusedNamingTheFile() throws {
        let odd = try file([0xFF, 0xFE, 0x41])
        #expect(throws: PassmintError.self) { try FileIO.readText(odd, what: "project file") }
        let unpaired = try file([0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00])
        do {
            _ = try FileIO.readText(unpaired, what: "project file")
            Issue.record("an unpaired surrogate is refused")
        } catch {
            #expect(error.message.contains("project file \(unpaired) is not valid UTF-16"), "\(error.message)")
        }
        do {
            _ = try FileIO.readText("/dev/zero", what: "passphrase file", maximumBytes: 64 << 10)
            Issue.record("/dev/zero is refused at the limit")
        } catch {
            #expect(error.message.contains("passphrase file /dev/zero weighs more than"), "\(error.message)")
        }
    }
}
