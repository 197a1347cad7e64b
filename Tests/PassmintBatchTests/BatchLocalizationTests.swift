import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintBatch

/// Translations filled from a batch's data columns.
@Suite(.computeThreads) struct BatchLocalizationTests {
    static let passJSON = """
        {
          "formatVersion": 1, "serialNumber": "{{serialNumber}}", "organizationName": "ORG", "description": "DESCRIPTION",
          "storeCard": {
            "primaryFields": [{"key": "points", "label": "POINTS", "value": "{{points}}"}],
            "backFields": [{"key": "welcome", "label": "WELCOME_LABEL", "value": "WELCOME"}]
          }
        }
        """

    /// A batch with one data column per language (`offer.en`, `offer.fr`): `strings.json` points each language's
    /// translation at its column, so every pass carries its own text in every language.
    @Test func perLanguageBatchColumnsFillTheTranslations() async throws {
        var files: [String: [UInt8]] = [
            "icon.png": TestTemplates.png(width: 38, height: 38), "icon@2x.png": TestTemplates.png(width: 76, height: 76),
            "icon@3x.png": TestTemplates.png(width: 114, height: 114),
        ]
        files["strings.json"] = Array(
            """
            {"en": {"ORG": "Mint Café", "DESCRIPTION": "Mint Café card", "POINTS": "Points", "WELCOME": "{{offer.en}}"},
             "fr": {"ORG": "Café Menthe", "DESCRIPTION": "Carte Café Menthe", "POINTS": "Points", "WELCOME": "{{offer.fr}}"}}
            """.utf8)
        let folder = try TestTemplates.write(passJSON: Self.passJSON, files: files)
        let work = TestEnvironment.temporaryFolder("columns")
        let data = work.appendingPathComponent("offers.csv")
        try Data(
            """
            serialNumber,points,offer.en,offer.fr
            C-1,5,"Free coffee, today","Café offert, aujourd'hui"
            C-2,7,Two for one,Deux pour un

            """.utf8
        ).write(to: data)
        let output = work.appendingPathComponent("out")
        let result = try await BatchRunner(
            template: try PassTemplate(folder: folder.path), builder: PassBuilder(identity: try TestTemplates.identity()),
            options: BatchOptions(outputFolder: output.path)
        ).run(try BatchInput(path: data.path))
        #expect(result.issued == 2)
        for (serial, english, french) in [
            ("C-1", "Free coffee, today", "Café offert, aujourd'hui"), ("C-2", "Two for one", "Deux pour un"),
        ] {
            let entries = try ZipArchive.read(
                Array(try Data(contentsOf: output.appendingPathComponent("\(serial).pkpass"))), source: serial)
            func welcome(_ language: String) throws -> String? {
                try StringsFile.parse(try #require(entries.first { $0.name == "\(language).lproj/pass.strings" }).bytes).first {
                    $0.key == "WELCOME"
                }?.value
            }
            #expect(try welcome("en") == english)
            #expect(try welcome("fr") == french)
        }
    }
}
