import ArgumentParser
import Foundation
import Passmint
import PassmintBatch

/// How a spreadsheet's columns and values are read, shared by `batch` and `update`.
struct SpreadsheetOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Which column feeds which placeholder: \"Mitgliedsnummer=serialNumber,Name=memberName,Punkte=points\". Columns not named here are taken when their header is a placeholder's name (case and accents ignored).",
            valueName: "Column=placeholder,…"))
    var map: String?

    @Option(
        help: ArgumentHelp(
            "A mapping file: a JSON object {\"Column\": \"placeholder\", …} or one Column=placeholder per line.", valueName: "file"))
    var mapFile: String?

    @Option(
        help: ArgumentHelp(
            "How the spreadsheet writes numbers and dates, e.g. de-DE (1.234,5 and 17.05.2023) or en-US (1,234.5 and 5/17/2023). Default: 1,234.5 and ISO dates (2023-05-17).",
            valueName: "locale"))
    var locale: String?

    @Option(
        help: ArgumentHelp(
            "Dates written another way: a pattern of dd, MM, yyyy, HH, mm, ss, e.g. dd/MM/yyyy (a time may follow the date).",
            valueName: "pattern"))
    var dateFormat: String?

    @Option(
        help: ArgumentHelp(
            "Time zone of dates written without one, e.g. Europe/Berlin (default: this computer's).", valueName: "zone"))
    var timeZone: String?

    @Option(
        help: ArgumentHelp(
            "A placeholder whose value must not be empty: a row with it empty fails (otherwise a warning lists such rows). Repeatable.",
            valueName: "placeholder"))
    var require: [String] = []

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "A value for every row, for a placeholder no column feeds: nfcMessage=MLC, pointsToNextReward:=250 (JSON), or columns combined: memberName=\"{{Vorname}} {{Nachname}}\". With update --publish: a value for every pass. Repeatable.",
            valueName: "placeholder=value"))
    var set: [String] = []

    @Option(
        help: ArgumentHelp(
            "CSV delimiter: comma, semicolon or tab (',' ';' 'tab'). Default: detected from the header line.", valueName: "delimiter"),
        transform: { try OptionValue.delimiter($0) })
    var delimiter: UInt8?

    @Option(
        help: ArgumentHelp(
            "Encoding of a CSV file without a byte order mark: utf-8 (default), windows-1252 (Excel's \"CSV\" on Windows), utf-16le, utf-16be. "
                + "A byte order mark always wins.",
            valueName: "name"),
        transform: { try OptionValue.encoding($0) })
    var encoding: TextEncoding?

    @Flag(
        name: .customLong("keep-columns"),
        help:
            "Keep the columns no placeholder uses in each pass's data (stored with --register); by default only what the template uses is kept."
    )
    var keepColumns = false

    /// Opens the data file `path`, read with --delimiter and --encoding over the project file's.
    func input(_ path: String, project: ProjectFile?) throws -> BatchInput {
        let encoding = try encoding ?? project?.encoding.map { try OptionValue.encoding($0, option: "encoding") }
        let delimiter = try delimiter ?? project?.delimiter.map { try OptionValue.delimiter($0, option: "delimiter") }
        return try BatchInput(path: path, delimiter: delimiter, encoding: encoding)
    }

    /// The `--set` values, as given.
    func values() throws -> [ColumnMapping.Value] {
        try set.map { try ColumnMapping.value(parsing: $0) }
    }

    /// The mapping: the project file's, then --map-file's, then --map's and --set's (later entries for a placeholder
    /// win); with the name of where it came from, for messages.
    func mapping(project: ProjectFile?) throws -> (ColumnMapping, String) {
        var mapping = project?.mapping ?? ColumnMapping()
        var source = project.map { "the mapping in \($0.path)" } ?? "--map"
        if let mapFile {
            mapping = mapping.merged(with: try ColumnMapping(file: mapFile))
            source = "--map-file \(mapFile)"
        }
        if let map {
            mapping = mapping.merged(with: try ColumnMapping(parsing: map))
            source = "--map"
        }
        mapping = mapping.merged(with: ColumnMapping(values: try values()))
        mapping.keepsUnusedColumns = keepColumns
        return (mapping, source)
    }

    /// The values' format, options over the project file's.
    func format(project: ProjectFile?) throws -> SpreadsheetFormat {
        try SpreadsheetFormat(
            locale: locale ?? project?.locale, dateFormat: dateFormat ?? project?.dateFormat, timeZone: timeZone ?? project?.timeZone)
    }

    /// The placeholders that must not be empty: these and the project file's.
    func required(project: ProjectFile?) -> [String] {
        var names = project?.require ?? []
        for name in require where !names.contains(name) { names.append(name) }
        return names
    }
}
