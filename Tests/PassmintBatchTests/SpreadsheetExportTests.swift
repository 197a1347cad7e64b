import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintBatch

/// Data files shaped like what Excel saves: "CSV" in a European locale (semicolons, Windows-1252, CRLF), "CSV" on
/// Windows (commas, Windows-1252), "CSV UTF-8" (a byte order mark) and "Unicode Text" (UTF-16LE, a byte order mark,
/// tabs).
@Suite(.computeThreads) struct SpreadsheetExportTests {
    static let loyaltyHeader = [
        "serialNumber", "memberId", "memberName", "tier", "nfcMessage", "points", "pointsToNextReward", "memberSince",
    ]

    /// Windows-1252 bytes of text holding only Latin-1 letters and the few 0x80–0x9F characters used here.
    static func windows1252(_ text: String) -> [UInt8] {
        let high: [Unicode.Scalar: UInt8] = [
            "€": 0x80, "‚": 0x82, "„": 0x84, "…": 0x85, "’": 0x92, "“": 0x93, "”": 0x94, "–": 0x96, "Œ": 0x8C, "œ": 0x9C,
        ]
        return text.unicodeScalars.map { scalar in
            if let byte = high[scalar] { return byte }
            precondition(scalar.value < 0x100, "\(scalar) is not in this test's Windows-1252 table")
            return UInt8(scalar.value)
        }
    }

    static func utf16LE(_ text: String, byteOrderMark: Bool = true) -> [UInt8] {
        (byteOrderMark ? [0xFF, 0xFE] : []) + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    static func utf16BE(_ text: String) -> [UInt8] { [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }

    func write(_ bytes: [UInt8], name: String = "members.csv") throws -> String {
        let url = TestEnvironment.temporaryFolder("excel").appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    func rows(_ input: BatchInput) -> [BatchRow] {
        var input = input
        var rows: [BatchRow] = []
        while let row = input.next() { rows.append(row) }
        return rows
    }

    /// Excel in a French or German locale: ';' between fields, Windows-1252, CRLF, quotes only where needed.
    static let europeanCSV = "serialNumber;memberName;tier;note\r\nM-1;Zoë Müller;Gold;\"a; b\"\r\nM-2;Œuvre “Déjà” – 5 €;Silver;l’été\r\n"

    @Test func semicolonsAndWindows1252AsExcelSavesThemInEurope() throws {
        let path = try write(Self.windows1252(Self.europeanCSV))
        let input = try BatchInput(path: path, encoding: .windows1252)
        #expect(input.columns == ["serialNumber", "memberName", "tier", "note"])
        #expect(input.formatDescription.contains("semicolon-separated (detected from the header)"))
        #expect(input.formatDescription.contains("Windows-1252"))
        let rows = rows(input)
        #expect(rows.count == 2)
        #expect(try rows[0].values.get()["memberName"] == "Zoë Müller")
        #expect(try rows[0].values.get()["note"] == "a; b")
        #expect(try rows[1].values.get()["memberName"] == "Œuvre “Déjà” – 5 €")
        #expect(try rows[1].values.get()["note"] == "l’été")
        #expect(rows[1].line == 3)
    }

    @Test func windows1252ReadAsUTF8SaysWhichOptionReadsIt() throws {
        let path = try write(Self.windows1252(Self.europeanCSV))
        let input = try BatchInput(path: path)
        #expect(input.columns?.count == 4, "the header is ASCII, so it reads; the delimiter is still detected")
        let rows = rows(input)
        guard case .failure(let error) = rows[0].values else {
            Issue.record("Zoë in Windows-1252 is not UTF-8")
            return
        }
        #expect(error.message.contains("not valid UTF-8"))
        #expect(error.message.contains("--encoding windows-1252"))
    }

    @Test func commasAndWindows1252AsExcelSavesThemInTheUS() throws {
        let csv = "serialNumber,memberName,points\r\nM-1,\"Dupont, Jean\",1250\r\nM-2,Renée,12\r\n"
        let input = try BatchInput(path: try write(Self.windows1252(csv)), encoding: .windows1252)
        #expect(input.formatDescription.hasPrefix("CSV, comma-separated"))
        let rows = rows(input)
        #expect(try rows[0].values.get()["memberName"] == "Dupont, Jean")
        #expect(try rows[1].values.get()["memberName"] == "Renée")
    }

    @Test func csvUTF8WithByteOrderMarkWinsOverTheEncodingOption() throws {
        let csv = "serialNumber;memberName\r\nM-1;Zoë\r\n"
        let input = try BatchInput(path: try write([0xEF, 0xBB, 0xBF] + Array(csv.utf8)), encoding: .windows1252)
        #expect(input.formatDescription.contains("UTF-8 (byte order mark)"))
        #expect(try rows(input)[0].values.get()["memberName"] == "Zoë")
    }

    /// Excel's "Unicode Text": UTF-16LE with a byte order mark, tab-separated, CRLF; quoted fields may hold line breaks.
    /// Enough rows to cross the reader's 64 KB blocks, so surrogate pairs and CRLFs land on block edges.
    @Test func unicodeTextIsUTF16WithTabs() throws {
        var text = "serialNumber\tmemberName\tnote\r\n"
        let count = 3000
        for index in 1...count { text += "M-\(index)\t李小龙 🎉 Zoë\t\"two\r\nlines\"\r\n" }
        let path = try write(Self.utf16LE(text), name: "members.txt")
        let input = try BatchInput(path: path)
        #expect(input.formatDescription.contains("tab-separated (detected from the header), UTF-16LE (byte order mark), 3 columns"))
        let rows = rows(input)
        #expect(rows.count == count)
        for (index, row) in rows.enumerated() {
            let values = try row.values.get()
            #expect(values["serialNumber"] == .string("M-\(index + 1)"))
            #expect(values["memberName"] == "李小龙 🎉 Zoë")
            #expect(values["note"] == "two\r\nlines")
        }
        #expect(rows.last?.line == 2 + (count - 1) * 2)
        #expect(BatchInput.estimatedRowCount(path: path) == count * 2, "an estimate: quoted line breaks count as lines")
    }

    @Test func utf16BigEndianAndABrokenSurrogate() throws {
        let input = try BatchInput(path: try write(Self.utf16BE("serialNumber,name\n1,Zoë 🎉\n")))
        #expect(try rows(input)[0].values.get()["name"] == "Zoë 🎉")
        // A high surrogate followed by an ordinary letter.
        let broken = Self.utf16LE("serialNumber,name\n1,") + [0x3D, 0xD8, 0x41, 0x00] + Self.utf16LE("\n", byteOrderMark: false)
        let rows = rows(try BatchInput(path: try write(broken)))
        guard case .failure(let error) = rows[0].values else {
            Issue.record("a lone surrogate is not text")
            return
        }
        #expect(error.message.contains("not valid UTF-16"))
    }

    @Test func forcedDelimiterThatSplitsNothingIsExplained() throws {
        let path = try write(Array("serialNumber;memberName\nM-1;Zoë\n".utf8))
        #expect(try BatchInput(path: path, delimiter: UInt8(ascii: ";")).columns == ["serialNumber", "memberName"])
        do {
            _ = try BatchInput(path: path, delimiter: UInt8(ascii: ","))
            Issue.record("a one-column header holding ';' must be refused")
        } catch {
            #expect(error.message.contains("single column"))
            #expect(error.message.contains("semicolon"))
            #expect(error.message.contains("--delimiter"))
        }
        // A real one-column file is fine.
        #expect(try BatchInput(path: try write(Array("serialNumber\nM-1\n".utf8))).columns == ["serialNumber"])
    }

    @Test func detectionCountsOnlyDelimitersOutsideQuotes() {
        #expect(CSVReader.detectDelimiter(firstLineOf: Array("a;b;c\n1,2,3,4,5\n".utf8)) == UInt8(ascii: ";"))
        #expect(CSVReader.detectDelimiter(firstLineOf: Array("\"x,y,z\";b\n".utf8)) == UInt8(ascii: ";"))
        #expect(CSVReader.detectDelimiter(firstLineOf: Array("a\tb,c\td\n".utf8)) == UInt8(ascii: "\t"))
        #expect(CSVReader.detectDelimiter(firstLineOf: Array("single\n".utf8)) == UInt8(ascii: ","))
    }

    @Test func encodingNamesAsUsersTypeThem() {
        #expect(TextEncoding(name: "Windows-1252") == .windows1252)
        #expect(TextEncoding(name: "cp1252") == .windows1252)
        #expect(TextEncoding(name: "UTF8") == .utf8)
        #expect(TextEncoding(name: "utf_16le") == .utf16LE)
        #expect(TextEncoding(name: "latin-9") == nil)
    }

    /// The semicolon file as a batch: every row becomes a pass (before, every row failed with "no serial number").
    @Test func semicolonFileIssuesPasses() async throws {
        let folder = TestEnvironment.temporaryFolder("excel-batch")
        var text = Self.loyaltyHeader.joined(separator: ";") + "\r\n"
        for index in 1...20 { text += "M-\(index);\(index);Zoë Müller;Gold;mlc:\(index);1250;250;2024-03-01T00:00:00+01:00\r\n" }
        let data = folder.appendingPathComponent("members.csv")
        try Data(Self.windows1252(text)).write(to: data)
        let runner = BatchRunner(
            template: try PassTemplate(folder: BatchRunnerTests.loyalty), builder: PassBuilder(identity: try TestTemplates.identity()),
            options: BatchOptions(outputFolder: folder.appendingPathComponent("out").path))
        let result = try await runner.run(try BatchInput(path: data.path, encoding: .windows1252))
        #expect(result.issued == 20)
        #expect(result.failed == 0)
        let pass = try FileIO.read(folder.appendingPathComponent("out/M-7.pkpass").path, what: "pass")
        let json = try ZipArchive.read(pass, source: "M-7").first { $0.name == "pass.json" }!.bytes
        #expect(String(decoding: json, as: UTF8.self).contains("Zoë Müller"))
    }

    /// A header that is a placeholder's name but for case is taken; the placeholders without a column are one error.
    @Test func missingColumnsAreOneErrorNotOnePerRow() async throws {
        let folder = TestEnvironment.temporaryFolder("excel-serial")
        let data = folder.appendingPathComponent("members.csv")
        try Data("SerialNumber,memberName\nM-1,Zoë\n".utf8).write(to: data)
        let output = folder.appendingPathComponent("out")
        let runner = BatchRunner(
            template: try PassTemplate(folder: BatchRunnerTests.loyalty), builder: PassBuilder(identity: try TestTemplates.identity()),
            options: BatchOptions(outputFolder: output.path))
        do {
            _ = try await runner.run(try BatchInput(path: data.path))
            Issue.record("a file without the serial column must be refused")
        } catch {
            let message = (error as? PassmintError)?.message ?? "\(error)"
            #expect(
                message.contains("has no column for 6 placeholders nfcMessage, memberId, tier, points, pointsToNextReward, memberSince "),
                "\(message)")
            #expect(!message.contains("serialNumber"), "SerialNumber is the serial numbers' column: \(message)")
        }
        #expect(!FileManager.default.fileExists(atPath: output.path), "nothing is written")
    }
}
