import Foundation
import PassmintTestSupport
import PassmintTestTraits
import Testing

@testable import Passmint
@testable import PassmintBatch

/// Columns mapped to placeholders and spreadsheet values converted as the template needs them.
@Suite(.computeThreads) struct SpreadsheetPlanTests {
    static let names = ["serialNumber", "memberId", "memberName", "tier", "nfcMessage", "points", "pointsToNextReward", "memberSince"]

    @Test func aMappingAndHeadersMatchedByNameIgnoringCaseAndAccents() throws {
        let mapping = try ColumnMapping(parsing: "Mitgliedsnummer=serialNumber, Name=memberName,Punkte=points")
        let columns = try SpreadsheetColumns(
            columns: ["Mitgliedsnummer", "Name", "Punkte", "MEMBER SINCE", "Tíer", "Notiz"], names: Self.names, mapping: mapping)
        #expect(
            columns.describe() == [
                "Mitgliedsnummer → serialNumber (--map)", "Name → memberName (--map)", "Punkte → points (--map)",
                "MEMBER SINCE → memberSince (same name but for case or accents)", "Tíer → tier (same name but for case or accents)",
                "Notiz: not used (no placeholder of that name), not stored",
            ])
        #expect(columns.missing == ["memberId", "nfcMessage", "pointsToNextReward"])
        let row = columns.apply([
            "Mitgliedsnummer": "M-1", "Name": "Zoë", "Punkte": "12", "MEMBER SINCE": "x", "Tíer": "Gold", "Notiz": "n",
        ])
        #expect(row == ["serialNumber": "M-1", "memberName": "Zoë", "points": "12", "memberSince": "x", "tier": "Gold"])
    }

    @Test func aMappingNamingAColumnOrPlaceholderThatIsNotThereSaysSo() throws {
        #expect {
            try SpreadsheetColumns(columns: ["Nummer", "Name"], names: Self.names, mapping: try ColumnMapping(parsing: "name=memberName"))
        } throws: { error in
            (error as? PassmintError)?.message
                == "--map names the column \"name\", which the file does not have (its columns: Nummer, Name): did you mean Name?"
        }
        #expect {
            try SpreadsheetColumns(columns: ["Nummer", "Name"], names: Self.names, mapping: try ColumnMapping(parsing: "Name=membername"))
        } throws: { error in
            (error as? PassmintError)?.message
                == "--map maps Name to \"membername\", which the template does not use (did you mean memberName?)"
        }
        #expect(throws: PassmintError.self) { try ColumnMapping(parsing: "Name") }
    }

    @Test func germanNumbersDatesAndYesNo() throws {
        let format = try SpreadsheetFormat(locale: "de-DE", dateFormat: nil, timeZone: "Europe/Berlin")
        #expect(format.number("1.234,5")?.doubleValue == 1234.5)
        #expect(format.number(" 12 ")?.doubleValue == 12)
        #expect(format.number("zwölf") == nil)
        #expect(format.date("17.05.2023") == "2023-05-17T00:00:00+02:00")
        #expect(format.date("17.01.2023 08:30") == "2023-01-17T08:30:00+01:00")
        #expect(format.date("2023-05-17") == "2023-05-17T00:00:00+02:00")
        #expect(format.date("2023-05-17T08:30:00Z") == "2023-05-17T08:30:00Z")
        #expect(format.date("31.02.2023") == nil)
        #expect(format.boolean("ja") == true && format.boolean("Nein") == false && format.boolean("vielleicht") == nil)
        let american = try SpreadsheetFormat(locale: nil, dateFormat: "MM/dd/yyyy", timeZone: "UTC")
        #expect(american.date("05/17/2023") == "2023-05-17T00:00:00+00:00")
        #expect(american.number("1,234.5")?.doubleValue == 1234.5)
        #expect(throws: PassmintError.self) { try SpreadsheetFormat(locale: nil, dateFormat: nil, timeZone: "Mars/Olympus") }
        // Foundation reads GMT+15, but its date formatter stops the process on a zone beyond ±14:00.
        #expect(throws: PassmintError.self) { try SpreadsheetFormat(locale: nil, dateFormat: "dd.MM.yyyy", timeZone: "GMT+15") }
        let kiribati = try SpreadsheetFormat(locale: nil, dateFormat: "dd.MM.yyyy", timeZone: "GMT+14")
        #expect(kiribati.date("17.05.2023") == "2023-05-17T00:00:00+14:00")
    }

    @Test func anISODateWithItsZoneIsKeptAsWrittenAndNothingElseIs() {
        for kept in ["2023-05-17T08:30Z", "2023-05-17T08:30:00+02:00", "2023-05-17T08:30:00.125-05:30", "2023-05-17T08:30:00.5Z"] {
            #expect(DatePattern.isISOWithZone(kept), "\(kept)")
        }
        for other in [
            "2023-05-17", "2023-05-17T08:30", "2023-05-17T08:30:00", "2023-05-17 08:30Z", "2023-05-17T08:30:00.Z",
            "2023-05-17T08:30:00+0200", "2023-05-17T08:30:00+02:00 ", "23-05-17T08:30Z", "2023-5-17T08:30Z", "2023-05-17T08:30:0Z",
            "２０２３-05-17T08:30Z", "",
        ] {
            #expect(!DatePattern.isISOWithZone(other), "\(other)")
        }
    }

    @Test func aValueThatIsNotWhatTheCardShowsNamesRowColumnAndValue() throws {
        let template = try PassTemplate(folder: BatchRunnerTests.loyalty)
        #expect(template.placeholderKinds["memberSince"] == .date && template.placeholderKinds["points"] == .number)
        let columns = try SpreadsheetColumns(
            columns: ["Nummer", "Name", "Punkte", "Seit"], names: Self.names,
            mapping: try ColumnMapping(parsing: "Nummer=serialNumber,Name=memberName,Punkte=points,Seit=memberSince"))
        let plan = SpreadsheetPlan(
            columns: columns, mapping: ColumnMapping(), format: try SpreadsheetFormat(locale: "de-DE", dateFormat: nil, timeZone: "UTC"),
            kinds: template.placeholderKinds, required: ["memberName"])
        let good = try plan.data(["Nummer": "1", "Name": "Zoë", "Punkte": "1.250", "Seit": "17.05.2023"], row: 3).get()
        #expect(good["points"] == 1250 && good["memberSince"] == "2023-05-17T00:00:00+00:00")
        #expect(
            plan.data(["Nummer": "1", "Name": "Zoë", "Punkte": "zwölf", "Seit": "17.05.2023"], row: 42)
                == .failure(
                    .init(
                        message: "row 42, column Punkte: \"zwölf\" is not a number (write numbers like 1.234,5 (--locale de-DE))",
                        reason: "Punkte is not a number")))
        #expect(
            plan.data(["Nummer": "1", "Name": "Zoë", "Punkte": "1", "Seit": "2023/05/17"], row: 5)
                == .failure(
                    .init(
                        message: "row 5, column Seit: \"2023/05/17\" is not a date (write dates like 17.05.2023 or give --date-format)",
                        reason: "Seit is not a date")))
        #expect(
            plan.data(["Nummer": "1", "Name": " ", "Punkte": "1", "Seit": "17.05.2023"], row: 9)
                == .failure(
                    .init(
                        message: "row 9, column Name is empty, and --require memberName needs a value there",
                        reason: "Name is empty (--require memberName)")))
    }

    /// A project file's `"require": ["memberName"]` is for the members list: a points file for `passmint update`,
    /// which has no name column, is not refused row by row for it (issue 39).
    @Test func aRequirementAppliesOnlyWhereTheFileCarriesTheColumn() throws {
        let template = try PassTemplate(folder: BatchRunnerTests.loyalty)
        let format = try SpreadsheetFormat(locale: "de-DE", dateFormat: nil, timeZone: "UTC")
        let points = try SpreadsheetColumns(
            columns: ["Nummer", "Punkte"], names: Self.names, mapping: try ColumnMapping(parsing: "Nummer=serialNumber,Punkte=points"))
        let plan = SpreadsheetPlan(
            columns: points, mapping: ColumnMapping(), format: format, kinds: template.placeholderKinds, required: ["memberName"])
        #expect(try plan.data(["Nummer": "1", "Punkte": "7.219"], row: 2).get()["points"] == 7219)
        // JSON Lines: a row without the key is not refused; a row with it empty is.
        let lines = SpreadsheetPlan(
            columns: nil, mapping: ColumnMapping(), format: format, kinds: template.placeholderKinds, required: ["memberName"])
        #expect(try lines.data(["serialNumber": "1", "points": 3], row: 2).get()["points"] == 3)
        #expect(throws: SpreadsheetPlan.Problem.self) { try lines.data(["serialNumber": "1", "memberName": ""], row: 3).get() }
    }

    /// A mapping file saved by Windows Notepad (CRLF, a byte order mark) once mapped the junk column
    /// `"memberName\r\nPunkte=points"`: it reads as the two lines it shows (issue 40).
    @Test func aMappingFileSavedOnWindowsReadsAsItShows() throws {
        let file = TestEnvironment.temporaryFolder("mapping").appendingPathComponent("map.txt")
        try Data([0xEF, 0xBB, 0xBF] + Array("Name=memberName\r\nPunkte=points\r\n".utf8)).write(to: file)
        let mapping = try ColumnMapping(file: file.path)
        #expect(mapping.entries.map(\.column) == ["Name", "Punkte"])
        #expect(mapping.entries.map(\.placeholder) == ["memberName", "points"])
    }

    @Test func failuresGroupedByReasonWithTheirFirstRows() {
        var summary = FailureSummary()
        summary.add(row: 42, reason: "Punkte is not a number")
        summary.add(row: 7, reason: "no pass with this serial number")
        summary.add(row: 99, reason: "Punkte is not a number")
        #expect(summary.lines == ["2 rows: Punkte is not a number (rows 42, 99)", "1 row: no pass with this serial number (row 7)"])
        #expect(FailureSummary.reason(of: "row 3 (line 4): no serial number") == "no serial number")
        #expect(FailureSummary.reason(of: "row 3, column Punkte: x") == "column Punkte: x")
    }
}
