import Foundation
import PassmintTestSupport
import Testing

@testable import Passmint

/// Localization errors and the lint rules for translations.
extension LocalizationTests {
    @Test func badStringsJSONIsAClearError() throws {
        for (text, expected) in [
            (#"{"english": {"A": "a"}}"#, "\"english\" is not a language code"),
            (#"{"fr": {"A": 1}}"#, "fr.A must be a string"),
            (#"{"fr": ["A"]}"#, "\"fr\" must hold an object"),
            ("{", "strings.json is not valid JSON"),
        ] {
            var files = Self.icons
            files["strings.json"] = Array(text.utf8)
            let folder = try TestTemplates.write(passJSON: Self.passJSON, files: files)
            let error = #expect(throws: PassmintError.self) { try PassTemplate(folder: folder.path) }
            #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
            #expect(PassLinter.lint(try PassContents.load(folder: folder.path)).contains { $0.code == "strings-json" })
        }
    }

    // MARK: Lint

    static func lint(strings: [String: [StringsFile.Entry]], images: [PassContents.File] = []) throws -> [Diagnostic] {
        let json = try JSONParser.value(Array(Self.passJSON.utf8)).objectValue!
        var files = LintTests.images("icon", 38, 38) + images
        for (language, entries) in strings {
            files.append(PassContents.File(path: "\(language).lproj/pass.strings", bytes: StringsFile.write(entries)))
        }
        return PassLinter.lint(PassContents(source: "t", passJSON: json, files: files, isTemplate: true))
    }

    @Test func keyUsedInPassJSONWithoutATranslationIsNamedWithWhereItIsUsed() throws {
        let found = try Self.lint(strings: [
            "en": [.init(key: "POINTS", value: "Points"), .init(key: "WELCOME", value: "Hi")],
            "fr": [.init(key: "WELCOME", value: "Salut")],
        ]).filter { $0.code == "localization-key-missing" }
        #expect(found.count == 1)
        #expect(found.first?.severity == .warning)
        #expect(found.first?.file == "fr.lproj/pass.strings")
        #expect(found.first?.message.contains("\"POINTS\"") == true)
        #expect(found.first?.message.contains("storeCard.primaryFields[0].label") == true, "\(found.first?.message ?? "")")
        // Translated everywhere: nothing to report.
        let clean = try Self.lint(strings: [
            "en": [.init(key: "POINTS", value: "Points"), .init(key: "WELCOME", value: "Hi")],
            "fr": [.init(key: "POINTS", value: "Points"), .init(key: "WELCOME", value: "Salut")],
        ])
        #expect(!clean.contains { $0.code.hasPrefix("localization-") }, "\(clean.map(\.description))")
    }

    /// A location's or beacon's `relevantText` and a barcode's `altText` are shown to the user, so they are translated
    /// like labels and values.
    @Test func relevantTextAndBarcodeAltTextAreCheckedForTranslations() throws {
        var json = JSONValue.object(try JSONParser.value(Array(Self.passJSON.utf8)).objectValue!)
        json.set("locations", [["latitude": 48.85, "longitude": 2.35, "relevantText": "NEAR_SHOP"]])
        json.set("beacons", [["proximityUUID": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "relevantText": "AT_COUNTER"]])
        json.set("barcodes[0].altText", "SHOW_CODE")
        func lint(french: [StringsFile.Entry]) -> [Diagnostic] {
            let english: [StringsFile.Entry] = [
                .init(key: "POINTS", value: "Points"), .init(key: "WELCOME", value: "Hi"),
                .init(key: "NEAR_SHOP", value: "The shop is near"),
                .init(key: "AT_COUNTER", value: "Show your card"), .init(key: "SHOW_CODE", value: "Member code"),
            ]
            let files =
                LintTests.images("icon", 38, 38) + [
                    PassContents.File(path: "en.lproj/pass.strings", bytes: StringsFile.write(english)),
                    PassContents.File(path: "fr.lproj/pass.strings", bytes: StringsFile.write(french)),
                ]
            return PassLinter.lint(PassContents(source: "t", passJSON: json.objectValue!, files: files, isTemplate: true))
                .filter { $0.code == "localization-key-missing" }
        }
        let base: [StringsFile.Entry] = [.init(key: "POINTS", value: "Points"), .init(key: "WELCOME", value: "Salut")]
        let found = lint(french: base)
        #expect(found.count == 3, "\(found.map(\.description))")
        for (key, path) in [
            ("NEAR_SHOP", "locations[0].relevantText"), ("AT_COUNTER", "beacons[0].relevantText"), ("SHOW_CODE", "barcodes[0].altText"),
        ] {
            #expect(
                found.contains { $0.file == "fr.lproj/pass.strings" && $0.message.contains("\"\(key)\", which pass.json uses at \(path)") },
                "\(key): \(found.map(\.message))")
        }
        let translated = lint(
            french: base + [
                .init(key: "NEAR_SHOP", value: "La boutique est proche"), .init(key: "AT_COUNTER", value: "Montrez votre carte"),
                .init(key: "SHOW_CODE", value: "Code membre"),
            ])
        #expect(translated.isEmpty, "\(translated.map(\.description))")
    }

    @Test func missingLocalizedImageResolutionIsCaught() throws {
        let strings: [String: [StringsFile.Entry]] = [
            "en": [.init(key: "POINTS", value: "Points")], "fr": [.init(key: "POINTS", value: "Points")],
        ]
        let images =
            LintTests.images("logo", 160, 50, folder: "en.lproj/")
            + LintTests.images("logo", 160, 50, folder: "fr.lproj/").filter { $0.path != "fr.lproj/logo@3x.png" }
        let found = try Self.lint(strings: strings, images: images)
        #expect(
            found.contains { $0.code == "localization-image-missing" && $0.file == "fr.lproj/logo@3x.png" }, "\(found.map(\.description))")
        #expect(found.contains { $0.code == "image-scale-missing" && $0.file == "fr.lproj/logo@3x.png" })
        let complete = try Self.lint(
            strings: strings,
            images: LintTests.images("logo", 160, 50, folder: "en.lproj/") + LintTests.images("logo", 160, 50, folder: "fr.lproj/"))
        #expect(!complete.contains { $0.code == "localization-image-missing" || $0.code == "image-scale-missing" })
    }

    @Test func localizedChangeMessageNeedsPercentAtInEveryTranslation() throws {
        var json = JSONValue.object(try JSONParser.value(Array(Self.passJSON.utf8)).objectValue!)
        json.set("storeCard.primaryFields[0].changeMessage", "POINTS_CHANGED")
        func lint(_ french: String) -> [Diagnostic] {
            let files =
                LintTests.images("icon", 38, 38) + [
                    PassContents.File(
                        path: "en.lproj/pass.strings", bytes: StringsFile.write([.init(key: "POINTS_CHANGED", value: "You have %@ points")])
                    ),
                    PassContents.File(
                        path: "fr.lproj/pass.strings", bytes: StringsFile.write([.init(key: "POINTS_CHANGED", value: french)])),
                ]
            return PassLinter.lint(PassContents(source: "t", passJSON: json.objectValue!, files: files, isTemplate: true)).filter {
                $0.code == "field-change-message"
            }
        }
        #expect(lint("Vous avez %@ points").isEmpty)
        let found = lint("Vos points ont changé")
        #expect(found.map(\.file) == ["fr.lproj/pass.strings"])
        #expect(found.first?.severity == .error)
        // A key no pass.strings defines is an ordinary changeMessage without %@.
        json.set("storeCard.primaryFields[0].changeMessage", "UNKNOWN_KEY")
        #expect(lint("x").map(\.path) == ["storeCard.primaryFields[0].changeMessage"])
    }
}
