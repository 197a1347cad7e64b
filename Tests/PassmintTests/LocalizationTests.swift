import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint

/// `pass.strings` files, placeholders in translations, the `strings.json` template convention and the localization
/// lint rules.
@Suite(.computeThreads) struct LocalizationTests {
    static let icons: [String: [UInt8]] = [
        "icon.png": TestTemplates.png(width: 38, height: 38), "icon@2x.png": TestTemplates.png(width: 76, height: 76),
        "icon@3x.png": TestTemplates.png(width: 114, height: 114),
    ]

    static let passJSON = """
        {
          "formatVersion": 1, "serialNumber": "{{serialNumber}}", "organizationName": "ORG", "description": "DESCRIPTION",
          "barcodes": [{"format": "PKBarcodeFormatQR", "message": "{{serialNumber}}", "messageEncoding": "iso-8859-1"}],
          "storeCard": {
            "primaryFields": [{"key": "points", "label": "POINTS", "value": "{{points}}"}],
            "backFields": [{"key": "welcome", "label": "WELCOME_LABEL", "value": "WELCOME"}]
          }
        }
        """

    // MARK: pass.strings

    @Test func frenchEnglishChineseStringsRoundTripByteExact() throws {
        let entries: [StringsFile.Entry] = [
            .init(key: "POINTS", value: "Points fidélité"),
            .init(key: "WELCOME", value: "Bienvenue, « Zoë » !\nÀ bientôt\tchez \"Menthe\" \\ café"),
            .init(key: "EN", value: "Welcome back — see you soon"),
            .init(key: "ZH", value: "积分：欢迎光临薄荷咖啡"),
            .init(key: "EMOJI", value: "🌿 mint 🎟️"),
            .init(key: "clé accentuée", value: ""),
        ]
        let bytes = StringsFile.write(entries)
        #expect(Array(bytes.prefix(2)) == [0xFF, 0xFE], "UTF-16 little-endian with a BOM")
        let parsed = try StringsFile.parse(bytes)
        #expect(parsed == entries)
        #expect(StringsFile.write(parsed) == bytes, "parse then write gives the same bytes")
        // The escapes are written as Apple's .strings syntax expects.
        let text = try #require(StringsFile.decode(bytes))
        #expect(text.contains(#""WELCOME" = "Bienvenue, « Zoë » !\nÀ bientôt\tchez \"Menthe\" \\ café";"#))
    }

    // MARK: Placeholders in pass.strings

    @Test func placeholdersInPassStringsAreFilledPerPass() throws {
        var files = Self.icons
        files["fr.lproj/pass.strings"] = StringsFile.write([
            .init(key: "WELCOME", value: "Bonjour {{name}}, vous avez {{points}} points"), .init(key: "POINTS", value: "Points"),
        ])
        files["en.lproj/pass.strings"] = StringsFile.write([.init(key: "WELCOME", value: "Hello"), .init(key: "POINTS", value: "Points")])
        let template = try PassTemplate(folder: TestTemplates.write(passJSON: Self.passJSON, files: files).path)
        #expect(template.placeholders == ["serialNumber", "points", "name"], "pass.strings placeholders are listed after pass.json's")

        let pass = try PassBuilder(identity: TestTemplates.identity()).sign(
            PassInput(
                template: template, data: ["serialNumber": "S-1", "points": 1250, "name": "Zoë"]))
        let entries = try ZipArchive.read(pass.archive, source: "x")
        let french = try #require(entries.first { $0.name == "fr.lproj/pass.strings" })
        #expect(Array(french.bytes.prefix(2)) == [0xFF, 0xFE])
        #expect(
            try StringsFile.parse(french.bytes) == [
                .init(key: "WELCOME", value: "Bonjour Zoë, vous avez 1250 points"), .init(key: "POINTS", value: "Points"),
            ])
        let english = try #require(entries.first { $0.name == "en.lproj/pass.strings" })
        #expect(english.bytes == files["en.lproj/pass.strings"], "files without placeholders are copied as they are")
        let manifest = try JSONParser.value(pass.manifest)
        #expect(manifest["fr.lproj/pass.strings"]?.stringValue == Digest.sha1Hex(french.bytes))

        // The unchanged files come first, so the template's shared hash prefix still applies.
        let frenchIndex = try #require(entries.firstIndex { $0.name == "fr.lproj/pass.strings" })
        #expect(
            entries.indices.filter { entries[$0].name.hasSuffix(".png") || entries[$0].name == "en.lproj/pass.strings" }.allSatisfy {
                $0 < frenchIndex
            })
        #expect(template.sha256Hex(ofArchive: pass.archive) == Digest.sha256Hex(pass.archive))

        let missing = #expect(throws: PassmintError.self) {
            try PassBuilder(identity: TestTemplates.identity()).sign(
                PassInput(template: template, data: ["serialNumber": "S-1", "points": 1]))
        }
        #expect(missing?.code == .invalidData)
        #expect(missing?.message.contains("{{name}}") == true)
        #expect(missing?.message.contains("fr.lproj/pass.strings") == true, "\(missing?.message ?? "")")
    }

    @Test func templatesWithoutPlaceholdersInStringsDoNoPerPassWork() throws {
        var files = Self.icons
        files["fr.lproj/pass.strings"] = StringsFile.write([.init(key: "POINTS", value: "Points")])
        let template = try PassTemplate(folder: TestTemplates.write(passJSON: Self.passJSON, files: files).path)
        let rendered = try template.renderFiles(data: [:])
        #expect(rendered == template.files)
        #expect(zip(rendered, template.files).allSatisfy { $0.compressed === $1.compressed }, "the precomputed entries are reused")
    }

    /// Hand-written `pass.strings` in UTF-8 (or UTF-16 big-endian) ship as UTF-16 little-endian with a BOM: re-encoded
    /// once when the template loads, comments and layout kept; UTF-16 LE files ship as they are.
    @Test func handWrittenUTF8StringsShipAsUTF16LittleEndian() throws {
        let french = "/* écrit à la main */\n\"POINTS\" = \"Points fidélité\";\n\"WELCOME\" = \"Bienvenue\"; // fin\n"
        let german = "\"POINTS\" = \"Punkte\";\n"
        let english = StringsFileTests.utf16LittleEndian("\"POINTS\" = \"Points\";\n")
        var files = Self.icons
        files["fr.lproj/pass.strings"] = Array(french.utf8)
        files["de.lproj/pass.strings"] = StringsFileTests.utf16BigEndian(german)
        files["en.lproj/pass.strings"] = english
        let template = try PassTemplate(folder: TestTemplates.write(passJSON: Self.passJSON, files: files).path)
        func loaded(_ path: String) throws -> PassFile { try #require(template.files.first { $0.path == path }) }
        #expect(try loaded("fr.lproj/pass.strings").bytes == StringsFileTests.utf16LittleEndian(french), "same text, comments included")
        #expect(try loaded("de.lproj/pass.strings").bytes == StringsFileTests.utf16LittleEndian(german))
        #expect(try loaded("en.lproj/pass.strings").bytes == english)

        // Done at load: every pass reuses the template's re-encoded, hashed and compressed file.
        let rendered = try template.renderFiles(data: [:])
        #expect(zip(rendered, template.files).allSatisfy { $0.compressed === $1.compressed })
        let pass = try PassBuilder(identity: TestTemplates.identity()).sign(
            PassInput(
                template: template, data: ["serialNumber": "S-1", "points": 3]))
        let shipped = try #require(try ZipArchive.read(pass.archive, source: "x").first { $0.name == "fr.lproj/pass.strings" })
        #expect(shipped.bytes == StringsFileTests.utf16LittleEndian(french))
        #expect(try JSONParser.value(pass.manifest)["fr.lproj/pass.strings"]?.stringValue == Digest.sha1Hex(shipped.bytes))

        // The in-memory initializer does the same.
        let memory = try PassTemplate(
            folder: "memory", passJSON: template.passJSON,
            files: [
                try PassFile(path: "icon.png", bytes: TestTemplates.png(width: 38, height: 38)),
                try PassFile(path: "fr.lproj/pass.strings", bytes: Array(french.utf8)),
            ])
        #expect(memory.files.first { $0.path == "fr.lproj/pass.strings" }?.bytes == StringsFileTests.utf16LittleEndian(french))
    }

    @Test func unreadableStringsFileIsKeptForLintToReport() throws {
        var files = Self.icons
        files["fr.lproj/pass.strings"] = Array("\"POINTS\" = \"Points\"\n".utf8)
        let template = try PassTemplate(folder: TestTemplates.write(passJSON: Self.passJSON, files: files).path)
        #expect(template.files.first { $0.path == "fr.lproj/pass.strings" }?.bytes == files["fr.lproj/pass.strings"])
        let found = template.diagnostics.filter { $0.code == "strings-syntax" }
        #expect(found.map(\.severity) == [.error])
        #expect(found.first?.message.contains("line 1") == true, "\(found.map(\.description))")
        #expect(throws: PassmintError.self) {
            try PassBuilder(identity: TestTemplates.identity()).sign(
                PassInput(template: template, data: ["serialNumber": "S-1", "points": 3]))
        }
    }

    // MARK: strings.json

    static let stringsJSON = """
        {
          "en": {"POINTS": "Points", "WELCOME": "Welcome, {{name}}!", "ORG": "Mint Café", "DESCRIPTION": "Mint Café card"},
          "fr": {"POINTS": "Points fidélité", "WELCOME": "Bienvenue, {{name}} !", "ORG": "Café Menthe", "DESCRIPTION": "Carte Café Menthe"},
          "zh-Hans": {"POINTS": "积分", "WELCOME": "欢迎，{{name}}！", "ORG": "薄荷咖啡", "DESCRIPTION": "薄荷咖啡会员卡"}
        }
        """

    @Test func stringsJSONWritesPassStringsPerLanguageAndIsNotShipped() throws {
        var files = Self.icons
        files["strings.json"] = Array(Self.stringsJSON.utf8)
        // An existing pass.strings is merged: its other keys stay, strings.json wins on the same key.
        files["fr.lproj/pass.strings"] = StringsFile.write([
            .init(key: "POINTS", value: "Anciens points"), .init(key: "EXTRA", value: "En plus"),
        ])
        let folder = try TestTemplates.write(passJSON: Self.passJSON, files: files)
        let template = try PassTemplate(folder: folder.path)
        #expect(!template.files.contains { $0.path == "strings.json" })
        #expect(
            template.files.map(\.path).filter { $0.hasSuffix(".strings") } == [
                "en.lproj/pass.strings", "fr.lproj/pass.strings", "zh-Hans.lproj/pass.strings",
            ])

        let pass = try PassBuilder(identity: TestTemplates.identity()).sign(
            PassInput(
                template: template, data: ["serialNumber": "S-1", "points": 5, "name": "Zoë"]))
        let entries = try ZipArchive.read(pass.archive, source: "x")
        #expect(!entries.contains { $0.name == "strings.json" })
        #expect(try JSONParser.value(pass.manifest)["strings.json"] == nil)
        let french = try StringsFile.parse(try #require(entries.first { $0.name == "fr.lproj/pass.strings" }).bytes)
        #expect(
            french == [
                .init(key: "POINTS", value: "Points fidélité"), .init(key: "EXTRA", value: "En plus"),
                .init(key: "WELCOME", value: "Bienvenue, Zoë !"),
                .init(key: "ORG", value: "Café Menthe"), .init(key: "DESCRIPTION", value: "Carte Café Menthe"),
            ])
        let chinese = try #require(entries.first { $0.name == "zh-Hans.lproj/pass.strings" })
        #expect(Array(chinese.bytes.prefix(2)) == [0xFF, 0xFE])
        #expect(try StringsFile.parse(chinese.bytes).first { $0.key == "WELCOME" }?.value == "欢迎，Zoë！")

        // Lint reads the template the same way: strings.json is merged, not an unknown file.
        let found = PassLinter.lint(try PassContents.load(folder: folder.path))
        #expect(!found.contains { $0.code == "file-unknown" }, "\(found.map(\.description))")
        #expect(
            found.filter { $0.code == "localization-key-missing" }.map(\.file) == ["en.lproj/pass.strings", "zh-Hans.lproj/pass.strings"],
            "EXTRA is only in French")
    }

    /// `Translations` does for a template made in code what `strings.json` does for a folder.
    @Test func translationsInCodeWorkLikeStringsJSON() throws {
        var files = Self.icons
        files["strings.json"] = Array(Self.stringsJSON.utf8)
        files["fr.lproj/pass.strings"] = Array("\"POINTS\" = \"Anciens points\";\n\"EXTRA\" = \"En plus\";\n".utf8)
        let folder = try PassTemplate(folder: TestTemplates.write(passJSON: Self.passJSON, files: files).path)

        let passJSON = try JSONParser.value(Array(Self.passJSON.utf8))
        let memoryFiles =
            try Self.icons.sorted { $0.key < $1.key }.map { try PassFile(path: $0.key, bytes: $0.value) }
            + [try PassFile(path: "fr.lproj/pass.strings", bytes: try #require(files["fr.lproj/pass.strings"]))]
        let fromJSON = try PassTemplate(
            folder: "memory", passJSON: passJSON, files: memoryFiles,
            translations: try Translations(json: Array(Self.stringsJSON.utf8)))
        #expect(fromJSON.files.map(\.path) == folder.files.map(\.path))
        #expect(fromJSON.files.map(\.sha1) == folder.files.map(\.sha1), "the same pass.strings bytes as strings.json gives")
        #expect(fromJSON.placeholders == folder.placeholders)

        var translations = try Translations([
            "fr": ["WELCOME": "Bienvenue, {{name}} !", "POINTS": "Points fidélité"], "en": ["WELCOME": "Hello {{name}}"],
        ])
        try translations.set("积分", for: "POINTS", in: "zh-Hans")
        try translations.set("Points", for: "POINTS", in: "en")
        #expect(translations.languages.map(\.code) == ["en", "fr", "zh-Hans"], "a dictionary's languages are sorted")
        #expect(translations.text(for: "POINTS", in: "zh-Hans") == "积分")
        let template = try PassTemplate(folder: "memory", passJSON: passJSON, files: memoryFiles, translations: translations)
        let pass = try PassBuilder(identity: TestTemplates.identity()).sign(
            PassInput(
                template: template, data: ["serialNumber": "S-1", "points": 5, "name": "Zoë"]))
        let entries = try ZipArchive.read(pass.archive, source: "x")
        func strings(_ language: String) throws -> [StringsFile.Entry] {
            let file = try #require(entries.first { $0.name == "\(language).lproj/pass.strings" })
            #expect(StringsFile.isUTF16LittleEndianWithBOM(file.bytes))
            return try StringsFile.parse(file.bytes)
        }
        #expect(
            try strings("fr") == [
                .init(key: "POINTS", value: "Points fidélité"), .init(key: "EXTRA", value: "En plus"),
                .init(key: "WELCOME", value: "Bienvenue, Zoë !"),
            ])
        #expect(try strings("en") == [.init(key: "WELCOME", value: "Hello Zoë"), .init(key: "POINTS", value: "Points")])
        #expect(try strings("zh-Hans") == [.init(key: "POINTS", value: "积分")])

        let error = #expect(throws: PassmintError.self) { try Translations(["french": ["A": "a"]]) }
        #expect(error?.code == .invalidTemplate)
        #expect(error?.message.contains("\"french\" is not a language code") == true)
    }
}
