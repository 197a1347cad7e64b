import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// The `pass.strings` reader on files written by hand and by other tools (not only on its own output), its errors, and
/// the byte-exact round trip of the real Festival template's files.
@Suite(.computeThreads) struct StringsFileTests {
    /// `text` in UTF-16 big-endian with a byte order mark.
    static func utf16BigEndian(_ text: String) -> [UInt8] {
        [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    /// `text` in UTF-16 little-endian with a byte order mark, encoded here rather than by the writer under test.
    static func utf16LittleEndian(_ text: String) -> [UInt8] {
        [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    static let sample = "/* Menthe */\n\"POINTS\" = \"Points fidélité\";\n\"ZH\" = \"积分 🌿\";\n"
    static let sampleEntries: [StringsFile.Entry] = [.init(key: "POINTS", value: "Points fidélité"), .init(key: "ZH", value: "积分 🌿")]

    @Test func readsUTF16InBothByteOrdersAndUTF8WithOrWithoutBOM() throws {
        #expect(try StringsFile.parse(Self.utf16BigEndian(Self.sample)) == Self.sampleEntries, "UTF-16 BE with BOM")
        #expect(try StringsFile.parse(Self.utf16LittleEndian(Self.sample)) == Self.sampleEntries, "UTF-16 LE with BOM")
        #expect(try StringsFile.parse([0xEF, 0xBB, 0xBF] + Array(Self.sample.utf8)) == Self.sampleEntries, "UTF-8 with BOM")
        #expect(try StringsFile.parse(Array(Self.sample.utf8)) == Self.sampleEntries, "UTF-8 without BOM")
    }

    @Test func skipsBlockAndLineComments() throws {
        let text = """
            /* A block comment
               over two lines, with "quotes" and = signs; */
            "A" = "a"; // the rest of this line is a comment
            // a whole-line comment: "B" = "not an entry";
            "C" /* between key and = */ = /* and before the value */ "c";
            "URL" = "https://example.com/x"; /* // inside a value is text, not a comment */

            """
        let entries = try StringsFile.parse(Array(text.utf8))
        #expect(entries == [.init(key: "A", value: "a"), .init(key: "C", value: "c"), .init(key: "URL", value: "https://example.com/x")])
    }

    @Test func readsEscapes() throws {
        let text = #"""
            "escapes" = "line\nnext \"quoted\" back\\slash tab\there cr\rend";
            "unicode" = "\U00E9t\u00E9 \U4E2D";
            "pair" = "mint \UD83C\UDF3F leaf";
            """#
        let entries = try StringsFile.parse(Array(text.utf8))
        #expect(entries.map(\.key) == ["escapes", "unicode", "pair"])
        #expect(entries[0].value == "line\nnext \"quoted\" back\\slash tab\there cr\rend")
        #expect(entries[1].value == "été 中")
        #expect(entries[2].value == "mint 🌿 leaf", "a \\U surrogate pair is one character")
        #expect(entries[2].value.unicodeScalars.contains("\u{1F33F}"))
    }

    struct Malformed: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var line: Int
        var message: String
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(
            name: "missing semicolon", bytes: Array("\"A\" = \"a\";\n\"B\" = \"b\"\n\"C\" = \"c\";\n".utf8), line: 2,
            message: "expected ';' after the value of \"B\""),
        Malformed(
            name: "missing equals sign", bytes: Array("\"A\" = \"a\";\n\n\"B\" \"b\";\n".utf8), line: 3, message: "expected '=' after \"B\""
        ),
        Malformed(
            name: "unquoted key", bytes: Array("\"A\" = \"a\";\nB = \"b\";\n".utf8), line: 2,
            message: "expected a key or value in double quotes"),
        Malformed(
            name: "unterminated string", bytes: Array("\"A\" = \"a\";\n\"B\" = \"b;\nmore text\n".utf8), line: 2,
            message: "no closing double quote"),
        Malformed(
            name: "unterminated comment", bytes: Array("\"A\" = \"a\";\n/* never closed\n\"B\" = \"b\";\n".utf8), line: 2,
            message: "never closed with */"),
        Malformed(name: "short \\U escape", bytes: Array("\"A\" = \"\\U00E\";\n".utf8), line: 1, message: "four hex digits"),
        Malformed(
            name: "lone high surrogate", bytes: Array("\n\"A\" = \"\\UD83C alone\";\n".utf8), line: 2, message: "half of a surrogate pair"),
        Malformed(name: "lone low surrogate", bytes: Array("\"A\" = \"\\UDF3F\";\n".utf8), line: 1, message: "half of a surrogate pair"),
        Malformed(
            name: "invalid UTF-8", bytes: Array("\"A\" = \"".utf8) + [0xC3, 0x28] + Array("\";\n".utf8), line: 1,
            message: "neither UTF-8 nor UTF-16"),
        Malformed(
            name: "odd UTF-16 length", bytes: utf16LittleEndian("\"A\" = \"a\";") + [0x0A], line: 1, message: "neither UTF-8 nor UTF-16"),
        Malformed(
            name: "line count after a multi-line comment in UTF-16 BE",
            bytes: utf16BigEndian("/* one\ntwo\nthree */\n\"A\" = \"a\"\n"), line: 4, message: "expected ';' after the value of \"A\""),
    ]

    @Test(arguments: malformed)
    func malformedInputIsAnErrorNamingFileAndLine(_ input: Malformed) {
        let error = #expect(throws: StringsFile.SyntaxError.self) {
            try StringsFile.parse(input.bytes, file: "Festival.pass/fr.lproj/pass.strings")
        }
        #expect(error?.line == input.line, "\(error?.description ?? "")")
        #expect(error?.message.contains(input.message) == true, "\(error?.description ?? "")")
        #expect(
            error?.description.hasPrefix("Festival.pass/fr.lproj/pass.strings, line \(input.line): ") == true, "\(error?.description ?? "")"
        )
    }

    @Test func lintReportsTheLineOfAMalformedFile() {
        var files = LintTests.cleanFiles
        files.append(PassContents.File(path: "fr.lproj/pass.strings", bytes: Array("\"A\" = \"a\";\n\"B\" = \"b\"\n".utf8)))
        let found = LintTests.lint(LintTests.clean, files).filter { $0.code == "strings-syntax" }
        #expect(found.map(\.file) == ["fr.lproj/pass.strings"])
        #expect(found.first?.message.contains("line 2: expected ';'") == true, "\(found.map(\.description))")
    }

    /// The `<lang>.lproj/pass.strings` files of `PassTemplates/Festival.pass` (written from its `strings.json` when the
    /// template loads, and shipped in every pass) read and write back to the same bytes.
    @Test func festivalStringsRoundTripByteExact() throws {
        let root = TestEnvironment.repositoryRoot.appendingPathComponent("PassTemplates")
        let template = try PassTemplate(folder: root.appendingPathComponent("Festival.pass").path)
        let data = try JSONParser.value(try FileIO.read(root.appendingPathComponent("Festival.json").path, what: "data")).objectValue!
        let pass = try PassBuilder(identity: TestTemplates.identity()).sign(PassInput(template: template, data: data))
        let shipped = try ZipArchive.read(pass.archive, source: "Festival")
        for language in ["en", "fr", "zh-Hans"] {
            let path = "\(language).lproj/pass.strings"
            let inTemplate = try #require(template.files.first { $0.path == path }, "\(path) missing from the template")
            let inPass = try #require(shipped.first { $0.name == path }, "\(path) missing from the pass")
            for (origin, bytes) in [("template", inTemplate.bytes), ("pass", inPass.bytes)] {
                #expect(StringsFile.isUTF16LittleEndianWithBOM(bytes), "\(origin) \(path)")
                let entries = try StringsFile.parse(bytes, file: path)
                #expect(entries.count >= 17, "\(origin) \(path): \(entries.count) entries")
                #expect(StringsFile.write(entries) == bytes, "\(origin) \(path): read then write gives other bytes")
            }
        }
        let chinese = try StringsFile.parse(try #require(shipped.first { $0.name == "zh-Hans.lproj/pass.strings" }).bytes)
        #expect(chinese.contains { $0.value.unicodeScalars.contains { $0.value >= 0x4E00 && $0.value <= 0x9FFF } }, "Chinese text survives")
    }

    @Test func reencodingKeepsTheTextAndLeavesUTF16LittleEndianAlone() throws {
        let converted = try StringsFile.utf16LittleEndian(Array(Self.sample.utf8))
        #expect(converted == Self.utf16LittleEndian(Self.sample), "comments and layout kept, only the encoding changes")
        #expect(try StringsFile.utf16LittleEndian(Self.utf16BigEndian(Self.sample)) == Self.utf16LittleEndian(Self.sample))
        #expect(
            try StringsFile.utf16LittleEndian([0xEF, 0xBB, 0xBF] + Array(Self.sample.utf8)) == Self.utf16LittleEndian(Self.sample),
            "the UTF-8 BOM becomes the UTF-16 one, not a second BOM")
        let untouched = Self.utf16LittleEndian(Self.sample)
        #expect(try StringsFile.utf16LittleEndian(untouched) == untouched)
        #expect(throws: StringsFile.SyntaxError.self) { try StringsFile.utf16LittleEndian(Array("\"A\" = ".utf8)) }
    }
}
