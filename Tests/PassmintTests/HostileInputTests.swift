import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// Templates, data and files shaped by a careless user or an attacker (the hardening issue's items 5 to 7).
@Suite(.computeThreads) struct HostileInputTests {
    // MARK: 5. strings.json in linear time

    /// `strings.json` with `count` keys in each of two languages.
    static func stringsJSON(keys count: Int) -> [UInt8] {
        var text = "{"
        for (index, language) in ["en", "fr"].enumerated() {
            text += (index > 0 ? "," : "") + "\"\(language)\":{"
            for key in 0..<count { text += (key > 0 ? "," : "") + "\"KEY_\(key)\":\"\(language) text \(key)\"" }
            text += "}"
        }
        return Array((text + "}").utf8)
    }

    @Test func aStringsJSONWithAHundredThousandKeysLoadsAndLints() throws {
        // Before the fix every key was looked up by a scan of the keys before it (in the JSON object, and again in the
        // merge into pass.strings): 20,000 keys took 5.5 s, 40,000 took 24 s, and 100,000 did not finish in 10 minutes.
        // Each step is now a hash lookup, and this runs in about a second.
        var files = LocalizationTests.icons
        files["strings.json"] = Self.stringsJSON(keys: 100_000)
        let folder = try TestTemplates.write(passJSON: LocalizationTests.passJSON, files: files)
        let template = try PassTemplate(folder: folder.path)
        #expect(template.files.contains { $0.path == "fr.lproj/pass.strings" })
        let diagnostics = PassLinter.lint(try PassContents.load(folder: folder.path))
        #expect(!diagnostics.contains { $0.code == "strings-json" || $0.code == "strings-syntax" }, "\(diagnostics.prefix(3))")
    }

    @Test func aLargeJSONObjectKeepsItsOrderAndItsLastValueForARepeatedKey() throws {
        var text = "{"
        for key in 0..<5_000 { text += "\"k\(key)\":\(key)," }
        text += "\"k7\":\"again\"}"
        let object = try #require(try JSONParser.value(Array(text.utf8)).objectValue)
        #expect(object.count == 5_000)
        #expect(object.keys.prefix(3) == ["k0", "k1", "k2"])
        #expect(object["k7"] == .string("again"))
        #expect(object["k4999"]?.numberValue?.intValue == 4_999)
        var edited = object
        edited["k0"] = nil
        #expect(edited.count == 4_999 && edited["k1"] != nil && edited["k0"] == nil && edited.keys.first == "k1")
        edited["new"] = .bool(true)
        #expect(edited.keys.last == "new" && edited["new"] == .bool(true))
        #expect(JSONObject(object.members) == object, "equality by members, in order")
    }

    // MARK: 6. Numbers out of range, NUL characters

    @Test func aNumberADoubleCannotHoldIsRefusedAtItsPath() throws {
        var data = TestTemplates.data
        data["points"] = .number(JSONNumber(literal: "1e999999"))
        let error = try PassBuilderTests().buildError(data: data)
        #expect(error.message.contains("number-out-of-range"), "\(error.message)")
        #expect(error.message.contains("primaryFields[0].value"), "\(error.message)")
        let found = PassLinter.lintJSON(["formatVersion": 1, "serialNumber": "S", "x": .number(JSONNumber(literal: "-4e400"))])
        #expect(found.contains { $0.code == "number-out-of-range" && $0.path == "x" })
        #expect(
            !PassLinter.lintJSON(["formatVersion": 1, "serialNumber": "S", "x": 1.5e300]).contains { $0.code == "number-out-of-range" })
    }

    @Test func aNULInTheSerialOrAKeyIsRefused() throws {
        var data = TestTemplates.data
        data["serialNumber"] = "S-1\u{0}.pkpass"
        let error = try PassBuilderTests().buildError(data: data)
        #expect(error.message.contains("serial-number-nul"), "\(error.message)")
        let found = PassLinter.lintJSON(["formatVersion": 1, "serialNumber": "S", "user\u{0}Info": ["a": 1]])
        #expect(found.contains { $0.code == "key-nul" && $0.path == "user\\0Info" }, "\(found)")
    }

    // MARK: 7. Small things

    @Test func aNULInAZipEntryNameIsShownNotCut() throws {
        var archive = try ZipArchive.make([
            ZipArchive.Entry(name: "pass.json", bytes: Array("{}".utf8), compressed: true),
            ZipArchive.Entry(name: "iconX.png", bytes: [1, 2, 3], compressed: false),
        ])
        // Both copies of the name (local header and central directory) get the NUL; a CRC does not cover names.
        let name = Array("iconX.png".utf8)
        var index = 0
        while index + name.count <= archive.count {
            if Array(archive[index..<(index + name.count)]) == name { archive[index + 4] = 0 }
            index += 1
        }
        do {
            _ = try PassContents.load(pkpass: archive, source: "nul.pkpass")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("icon\\0.png"), "\(error.message)")
            #expect(error.message.contains("nul.pkpass"), "\(error.message)")
        }
    }

    /// A pass's own image (an upload to the issuing API, a spreadsheet cell's file) weighs at most 4 MiB: a 12 MB PNG
    /// padded with a huge text chunk was accepted by the service, and stored for every pass naming it (issue 40).
    @Test func aPassImageOverFourMebibytesIsRefusedBeforeItIsDecoded() throws {
        let png = TestPNG.make(width: 90, height: 90, rgba: (0x10, 0x20, 0x30, 0xFF))
        let padded = png + [UInt8](repeating: 0x41, count: PassImages.maximumFileBytes)
        do {
            _ = try PassImages.file(key: "thumbnail@2x", bytes: padded, label: "images.thumbnail@2x")
            Issue.record("a padded image is refused")
        } catch {
            #expect(error.message.contains("images.thumbnail@2x weighs") && error.message.contains("more than the 4194304 bytes"))
        }
        #expect(throws: Never.self) { try PassImages.file(key: "thumbnail@2x", bytes: png, label: "images.thumbnail@2x") }
    }
}
