import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintBatch

/// A spreadsheet that fits the template without editing `pass.json`: values for every row (constants and columns
/// combined), one column feeding several placeholders; columns the template does not use left out; values too long
/// for the card; whole-run problems before any row.
@Suite(.computeThreads) struct SpreadsheetFitTests {
    static let export = ["Mitgliedsnummer", "Vorname", "Nachname", "Punkte", "Seit", "Stufe", "Geburtstag"]

    /// The coffee chain's project file: one column for two placeholders, constants and a combination under "set".
    static func coffeeMapping() throws -> ColumnMapping {
        var mapping = try ColumnMapping(
            object: [
                "Mitgliedsnummer": ["serialNumber", "memberId"], "Punkte": "points", "Seit": "memberSince", "Stufe": "tier",
            ], source: "project file passmint.json: \"map\"")
        mapping.values = try ColumnMapping.values(
            object: ["nfcMessage": "MLC", "pointsToNextReward": 250, "memberName": "{{Vorname}} {{Nachname}}"],
            source: "\"set\" in passmint.json")
        return mapping
    }

    @Test func theCoffeeExportFeedsEveryPlaceholderWithoutEditingTheTemplate() throws {
        let template = try PassTemplate(folder: BatchRunnerTests.loyalty)
        var names = template.placeholders
        names.append("authenticationToken")
        let columns = try SpreadsheetColumns(columns: Self.export, names: names, mapping: try Self.coffeeMapping())
        #expect(columns.missing == ["authenticationToken"])
        let row = columns.apply([
            "Mitgliedsnummer": "1001", "Vorname": "Jürgen", "Nachname": "Groß", "Punkte": "1.250", "Seit": "17.05.2023",
            "Stufe": "Gold", "Geburtstag": "01.02.1990",
        ])
        #expect(
            row == [
                "serialNumber": "1001", "memberId": "1001", "points": "1.250", "memberSince": "17.05.2023", "tier": "Gold",
                "nfcMessage": "MLC", "pointsToNextReward": 250, "memberName": "Jürgen Groß",
            ], "the birthday column is left out")
        #expect(columns.column(of: "memberName") == "Vorname + Nachname")
        #expect(
            columns.describe(mappingSource: "the mapping in passmint.json") == [
                "Mitgliedsnummer → serialNumber (the mapping in passmint.json)",
                "Mitgliedsnummer → memberId (the mapping in passmint.json)",
                "Punkte → points (the mapping in passmint.json)", "Seit → memberSince (the mapping in passmint.json)",
                "Stufe → tier (the mapping in passmint.json)",
                "nfcMessage = \"MLC\" (\"set\" in passmint.json)", "pointsToNextReward = 250 (\"set\" in passmint.json)",
                "Vorname, Nachname → memberName = \"{{Vorname}} {{Nachname}}\" (\"set\" in passmint.json)",
                "Geburtstag: not used (no placeholder of that name), not stored",
            ])

        // A points file without the name columns: the project's combination is skipped, not refused.
        let points = try SpreadsheetColumns(columns: ["Mitgliedsnummer", "Punkte"], names: names, mapping: try Self.coffeeMapping())
        #expect(points.apply(["Mitgliedsnummer": "1001", "Punkte": "7"])["memberName"] == nil)

        // --keep-columns keeps the birthday under its own name.
        var keeping = try Self.coffeeMapping()
        keeping.keepsUnusedColumns = true
        let kept = try SpreadsheetColumns(columns: Self.export, names: names, mapping: keeping)
        #expect(kept.apply(["Mitgliedsnummer": "1001", "Geburtstag": "01.02.1990"])["Geburtstag"] == "01.02.1990")
    }

    @Test func setValuesFromTheCommandLineAndMisleadingMappingsSaySo() throws {
        #expect(try ColumnMapping.value(parsing: "pointsToNextReward:=250") == .init(placeholder: "pointsToNextReward", value: 250))
        #expect(try ColumnMapping.value(parsing: "memberName={{Vorname}} {{Nachname}}").columns == ["Vorname", "Nachname"])
        let names = SpreadsheetPlanTests.names
        let typo = ColumnMapping(values: [try ColumnMapping.value(parsing: "memberName={{vorname}} {{Nachname}}")])
        #expect {
            try SpreadsheetColumns(columns: Self.export, names: names, mapping: typo)
        } throws: { error in
            (error as? PassmintError)?.message.hasPrefix(
                "--set memberName=\"{{vorname}} {{Nachname}}\" names the column \"vorname\", which the file does not have") == true
                && (error as? PassmintError)?.message.hasSuffix(": did you mean Vorname?") == true
        }
        // A combination under "map" names where it goes instead of a column the file does not have.
        #expect {
            try ColumnMapping(object: ["memberName": "{{Vorname}} {{Nachname}}"], source: "project file passmint.json: \"map\"")
        } throws: { error in
            (error as? PassmintError)?.message
                == "project file passmint.json: \"map\": \"memberName\": \"{{Vorname}} {{Nachname}}\" combines columns, which a mapping cannot: a mapping is { \"Column\": \"placeholder\" }; a value made of columns goes under \"set\", placeholder first: \"set\": { \"memberName\": \"{{Vorname}} {{Nachname}}\" } (or --set memberName=\"{{Vorname}} {{Nachname}}\")"
        }
    }

    @Test func valuesTooLongForTheCardWarnAndAbsurdOnesFailTheirRow() throws {
        let template = try PassTemplate(folder: BatchRunnerTests.loyalty)
        let lengths = FieldLengths(template: template)
        #expect(lengths.front["memberName"] == .init(place: "a secondary field", characters: 40))
        #expect(lengths.front["tier"] == .init(place: "a header field", characters: 20))
        #expect(lengths.limit(of: "memberName") == 2_000)
        #expect(lengths.limit(of: "memberSince") == 10_000, "a back field scrolls")
        let columns = try SpreadsheetColumns(
            columns: ["Nummer", "Name"], names: SpreadsheetPlanTests.names,
            mapping: try ColumnMapping(parsing: "Nummer=serialNumber,Name=memberName"))
        let plan = SpreadsheetPlan(
            columns: columns, mapping: ColumnMapping(), format: SpreadsheetFormat(), kinds: template.placeholderKinds, required: [],
            lengths: lengths)
        let sixty = plan.renamed(["Nummer": "1", "Name": .string(String(repeating: "a", count: 60))])
        #expect(plan.cut(sixty).map(\.placeholder) == ["memberName"])
        if case .failure(let problem) = plan.converted(sixty, row: 2) { Issue.record("a long name only warns: \(problem)") }
        let huge = plan.renamed(["Nummer": "2", "Name": .string(String(repeating: "ü", count: 3_000))])
        #expect(plan.cut(huge).isEmpty, "said by its row's failure")
        #expect(
            plan.converted(huge, row: 3)
                == .failure(
                    .init(
                        message:
                            "row 3, column Name (memberName) holds 3000 characters, more than a card can hold (at most 2000 there): shorten it",
                        reason: "Name is longer than 2000 characters")))
    }

    @Test func anHTTPPublicURLStopsTheRunBeforeAnyRow() async throws {
        let folder = TestEnvironment.temporaryFolder("fit")
        let data = folder.appendingPathComponent("members.csv")
        var csv = BatchRunnerTests.header()
        for index in 1...5 { csv += BatchRunnerTests.row(index) }
        try Data(csv.utf8).write(to: data)
        let output = folder.appendingPathComponent("out")
        var options = BatchOptions(outputFolder: output.path, webServiceURL: "http://passes.example.test/wallet")
        options.jobs = 1
        let runner = BatchRunner(
            template: try PassTemplate(folder: BatchRunnerTests.loyalty), builder: PassBuilder(identity: try TestTemplates.identity()),
            options: options)
        do {
            _ = try await runner.run(try BatchInput(path: data.path))
            Issue.record("an http public URL was not refused")
        } catch let error as PassmintError {
            #expect(
                error.message.hasPrefix(
                    "the public URL http://passes.example.test/wallet (--public-url or \"publicURL\" in passmint.json) uses http, and Wallet takes only https web services"
                ), "\(error.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: output.path), "nothing is written")
    }
}
