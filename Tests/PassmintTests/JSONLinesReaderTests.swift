import Foundation
import PassmintTestTraits
import Testing

@testable import Passmint

/// The one JSON Lines reader, shared by `passmint batch` and the service's bulk update uploads.
@Suite(.computeThreads) struct JSONLinesReaderTests {
    private func file(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString).jsonl").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func lines(_ reader: JSONLinesReader) -> [(JSONLinesReader.Line, Int64)] {
        var lines: [(JSONLinesReader.Line, Int64)] = []
        while let (line, end) = reader.next() { lines.append((line, end)) }
        return lines
    }

    @Test func dropsAByteOrderMarkAndCarriageReturns() throws {
        let path = try file([0xEF, 0xBB, 0xBF] + Array("{\"a\":1}\r\n{\"b\":2}\r".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let read = lines(try #require(JSONLinesReader(path: path)))
        #expect(read.map(\.0) == [.text(Array("{\"a\":1}".utf8)), .text(Array("{\"b\":2}".utf8))])
        #expect(read.map(\.1) == [12, 20])
    }

    @Test func resumesFromAnOffsetWithoutTakingAMarkThere() throws {
        let path = try file(Array("{\"a\":1}\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("x\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let read = lines(try #require(JSONLinesReader(path: path, offset: 8)))
        #expect(read.map(\.0) == [.text([0xEF, 0xBB, 0xBF] + Array("x".utf8))], "only the file's first bytes can be a byte order mark")
    }

    @Test func skipsALineOverTheLimitWithoutHoldingIt() throws {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 20)
        let path = try file(Array("{}\n".utf8) + long + Array("\n{}\n".utf8) + long)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let read = lines(try #require(JSONLinesReader(path: path, maximumLine: 1 << 20)))
        #expect(read.map(\.0) == [.text(Array("{}".utf8)), .tooLong, .text(Array("{}".utf8)), .tooLong])
        #expect(read.last?.1 == Int64(3 + long.count + 4 + long.count))
    }

    @Test func aLineOfExactlyTheLimitIsRead() throws {
        let line = [UInt8](repeating: UInt8(ascii: "y"), count: 1000)
        let path = try file(line + [0x0D, 0x0A] + line)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let read = lines(try #require(JSONLinesReader(path: path, maximumLine: 1000)))
        #expect(read.map(\.0) == [.text(line), .text(line)])
    }

    @Test func blankLinesAreSpacesAndTabs() {
        #expect(JSONLinesReader.Line.text(Array(" \t".utf8)).isBlank)
        #expect(JSONLinesReader.Line.text([]).isBlank)
        #expect(!JSONLinesReader.Line.text(Array(" {}".utf8)).isBlank)
        #expect(!JSONLinesReader.Line.tooLong.isBlank)
    }

    @Test func aMissingFileIsNil() {
        #expect(JSONLinesReader(path: "/nonexistent/\(UUID().uuidString).jsonl") == nil)
    }
}
