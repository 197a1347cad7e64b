import ArgumentParser
import Dispatch
import Foundation
import Passmint
import PassmintBatch
import PassmintServer

struct BatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Issue one signed pass per row of a CSV or JSON Lines file, on all cores.",
        discussion: """
            CSV: the header names the placeholders (RFC 4180 quoting); the delimiter (comma, semicolon or tab) is detected \
            from the header unless --delimiter gives it; the text is UTF-8 (BOM tolerated), UTF-16 with a BOM (Excel's \
            "Unicode Text"), or what --encoding names (windows-1252 for Excel's "CSV" on Windows); values are text, and \
            placeholders the template uses as numbers or booleans (a field with numberStyle, latitude, voided, …) are \
            converted. JSON Lines (.jsonl): one object per line with typed values. The serial number comes from the \
            serialNumber column (or --serial-column). When the template has a webServiceURL (or --public-url gives one), \
            each pass gets its own random authenticationToken (128 bits, base64url) unless the row gives one.

            Output: <out-dir>/<serial>.pkpass, each written atomically, and <out-dir>/batch-report.csv (or .jsonl, mode \
            0600: it holds the tokens) with one line per row: row, serialNumber, status (issued, existing, recorded, \
            failed), file, sha256, authenticationToken, error, and with --register and $PASSMINT_LINK_SECRET the \
            pass's downloadURL and addURL. Columns named image:<slot> (image:thumbnail@2x) hold a PNG path, relative \
            to the data file, that replaces the template's image of that slot for the row's pass: a regular file of at \
            most 4 MiB inside the data file's folder (or an --images-from folder; absolute paths only there). File names keep letters, digits, '.', '_' and '-'; any other character \
            becomes '_' and then '-' plus 8 hex digits of the serial's SHA-256 is appended (also when a serial is longer \
            than 100 bytes).

            Spreadsheets: --map Column=placeholder,… (or --map-file) names the columns whose header is not the \
            placeholder's name; other headers are taken when they match a placeholder ignoring case and accents; the run \
            prints the mapping first. --set gives a placeholder no column feeds a value for every row (nfcMessage=MLC), \
            or columns combined (memberName="{{Vorname}} {{Nachname}}"). Columns no placeholder uses are left out of the \
            passes' data (and the store) unless --keep-columns. --locale de-DE reads numbers (1.234,5) and dates (17.05.2023) as the spreadsheet \
            writes them; --date-format and --time-zone for other dates. passmint.json (or --project) can hold the \
            template, certificates, output folder, public URL, store and mapping: passmint batch members.csv.

            Before any row the whole file is checked, and refused with one message: its encoding, every placeholder \
            without a column, the certificate against the template's pass type, an http public URL, duplicated serial \
            numbers. Empty values in columns the card shows, and values longer than the front of the card shows, are \
            warnings listed with their rows (--require makes empty ones errors); a row with a value no card holds (over \
            2,000 characters, 10,000 in a back field) fails. A bad row \
            (a value that is not a number or date, a missing value, a lint error) is reported with its row, column and \
            value and skipped; the end lists the failures grouped by reason and where the report is; exit status 1 when \
            any row failed. --resume keeps passes from an earlier run that exist, verify and whose row has not changed; \
            changed rows are issued again with their token. Ctrl-C stops after the passes in flight, with the report \
            written (exit status 130).
            """
    )

    @Argument(
        help: ArgumentHelp(
            "Template folder; or the data file (passmint batch members.csv) when passmint.json names the template.",
            valueName: "template-folder"))
    var template: String?

    @Option(help: ArgumentHelp("Rows: a .csv file or a .jsonl file.", valueName: "members.csv"))
    var data: String?

    @Option(
        help: ArgumentHelp(
            "Project file with the template, certificates, output folder, public URL, store, mapping and locale (default: passmint.json in the current folder, when there is one).",
            valueName: "passmint.json"))
    var project: String?

    @OptionGroup(title: "Spreadsheet columns and values") var spreadsheet: SpreadsheetOptions

    @Option(
        help: ArgumentHelp(
            "Output folder: the passes (one file each) and the report. With --out-archive, only the report (default: the archive's folder).",
            valueName: "dir"))
    var outDir: String?

    @Option(
        help: ArgumentHelp(
            "Write every pass into one ZIP archive of .pkpass entries (stored, appended as they are made; resumable with --resume) instead of a file per pass.",
            valueName: "cards.zip"))
    var outArchive: String?

    @Option(
        help: ArgumentHelp(
            "--out - writes every pass to standard output as a tar stream, in row order, with the report as its last entry (for piping into an upload tool).",
            valueName: "-"))
    var out: String?

    @Option(help: ArgumentHelp("Passes built at once (default: the number of cores).", valueName: "N"))
    var jobs: Int?

    @Option(help: ArgumentHelp("Column holding the serial number (\"serialColumn\" in passmint.json).", valueName: "NAME"))
    var serialColumn = "serialNumber"

    @Option(
        help: ArgumentHelp(
            "Issue only shard i of n (numbered from 0): the rows whose serial number hashes to it, so n machines share one batch (e.g. --shard $JOB_COMPLETION_INDEX/8 in a Kubernetes Indexed Job). The report is batch-report.shard-i-of-n.csv; the shards' reports concatenate into the whole report.",
            valueName: "i/n"),
        transform: OptionValue.shard)
    var shard: BatchShard?

    @Option(
        name: .customLong("images-from"),
        help: ArgumentHelp(
            "A folder image:<slot> cells may also name files in (besides the data file's folder), by a relative path or an absolute one inside it. Repeat for several.",
            valueName: "folder"))
    var imagesFrom: [String] = []

    @Flag(help: "Keep passes from an earlier run that exist, verify and whose row has not changed; build the rest.")
    var resume = false

    @Option(help: ArgumentHelp("Report format: csv or jsonl (default: csv).", valueName: "format"), transform: OptionValue.reportFormat)
    var report = BatchReportWriter.Format.csv

    @Flag(help: "No progress output.")
    var quiet = false

    @Flag(help: "Print a final summary object as JSON on stdout.")
    var json = false

    @Flag(help: "Sign even when the certificate has expired (for tests).")
    var allowExpired = false

    @Flag(
        name: .customLong("allow-http"),
        help:
            "Accept an http:// --public-url (a development service, as `passmint serve --allow-http`); Wallet accepts it only with Settings › Developer › Allow HTTP Services."
    )
    var allowHTTP = false

    @Option(
        help: ArgumentHelp(
            "Record every issued pass in the update service's store (a SQLite file or postgres:// URL, as `passmint serve --database-url`), so it can be updated and pushed later. The service must use the same templates folder.",
            valueName: "database-url"))
    var register: String?

    @Option(
        help: ArgumentHelp(
            "Like --register, with the database URL read from this environment variable, so a password in it stays out of `ps` (e.g. PASSMINT_DATABASE_URL, as `passmint serve` reads).",
            valueName: "VAR"))
    var registerEnv: String?

    /// The store to record passes in: --register's URL, or the one in --register-env's variable.
    var registerURL: String? {
        if let registerEnv { return ProcessInfo.processInfo.environment[registerEnv] }
        return register
    }

    @OptionGroup var publicURL: PublicURLOptions

    @Flag(
        name: .customLong("no-files"),
        help: ArgumentHelp(
            "Lazy issuing, with --register: check every row as for a pass and record it, then write the report (with the links), but sign and write no pass. The service signs each pass the first time a person or device fetches it."
        ))
    var noFiles = false

    @Option(
        help: ArgumentHelp(
            "How long the report's links stay valid (seconds, or 15m, 12h, 30d; default: no expiry). Links need $PASSMINT_LINK_SECRET, the same secret `passmint serve` uses.",
            valueName: "duration"),
        transform: { try OptionValue.duration($0, option: "--link-lifetime", example: OptionValue.durationExample) })
    var linkLifetime: Duration?

    @OptionGroup(title: "Signing") var signing: SigningOptions
    @OptionGroup(title: "Google Wallet") var google: BatchGoogleOptions

    func run() async throws {
        let project = try ProjectFile.load(project)
        try checkBeforeRun(project: project)
        var command = self
        try command.apply(project)
        try await command.execute(project: project)
    }

    /// The run, with the project file's settings in the options.
    func execute(project: ProjectFile?) async throws {
        MemoryAllocator.keepPassSizedBuffersOffMmap()
        let templateFolder = self.template ?? ""
        let data = self.data ?? ""
        let template = try PassTemplate(folder: templateFolder)
        let environment = try SecretFiles.expand(ProcessInfo.processInfo.environment)
        let linkSecret = try LinkSecret.read(environment)
        let webServiceURL = try publicURL.resolved(environment)
        if registerURL != nil, webServiceURL == nil, template.passJSON["webServiceURL"] == nil {
            throw ValidationError(
                """
                --register records passes so that the update service can change them, but passes without a webServiceURL never \
                ask it for changes: give --public-url with the URL `passmint serve --public-url` uses (or set PASSMINT_PUBLIC_URL)
                """)
        }
        let identities = try signing.loadIdentities()
        let input = try spreadsheet.input(data, project: project)
        if !quiet && !json { printError("reading \(data): \(input.formatDescription)") }
        var options = BatchOptions(
            outputFolder: reportFolder, jobs: jobs, serialColumn: serialColumn, resume: resume,
            reportFormat: report, webServiceURL: webServiceURL, recordOnly: noFiles,
            shard: shard, output: output)
        options.imageFolders = imagesFrom
        (options.mapping, options.mappingSource) = try spreadsheet.mapping(project: project)
        if serialColumn != "serialNumber" {  // --serial-column over the project's "serialColumn"
            options.mapping.entries.removeAll { $0.placeholder == "serialNumber" && $0.optional }
        }
        options.format = try spreadsheet.format(project: project)
        options.required = spreadsheet.required(project: project)
        var runner = BatchRunner(
            template: template,
            builder: PassBuilder(
                identities: identities, options: .init(allowExpired: allowExpired, lint: LintOptions(allowHTTPWebService: allowHTTP))),
            options: options)
        let plan = try runner.plan(for: input)
        announce(plan, template: template, webServiceURL: webServiceURL)

        let stop = BatchStopSignal()
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler {
            stop.stop()
            printError("\nstopping after the passes in flight…")
        }
        interrupt.resume()

        let location = try registerURL.map(DatabaseLocation.init)
        if register != nil, location?.hasPassword == true {
            printError(
                "warning: --register shows the database password to anyone who can run `ps`: put the URL in PASSMINT_DATABASE_URL and give --register-env PASSMINT_DATABASE_URL"
            )
        }
        let database = try location.map { try openPassStore($0) }
        var recordLog: BatchRecordLog?
        if let database {
            let templateName = URL(fileURLWithPath: templateFolder).deletingPathExtension().lastPathComponent
            if noFiles {
                let registration = BatchRegistration(store: database.store, template: templateName, version: template)
                runner.registerMany = { passes in try await registration.recordMany(passes) }
            } else {
                let log = try BatchRecordLog(folder: reportFolder, shard: options.shard)
                recordLog = log
                let registration = BatchRegistration(store: database.store, template: templateName, version: template, log: log)
                runner.storedState = { issued in try await registration.state(of: issued) }
                runner.register = { issued, state in try await registration.record(issued, state: state) }
            }
            runner.links = links(publicURL: webServiceURL ?? template.passJSON["webServiceURL"]?.stringValue, secret: linkSecret)
        }
        let googleClient = try googleLink(
            template: template, folder: templateFolder, publicURL: webServiceURL, registered: database != nil, linkSecret: linkSecret)
        if let googleClient { runner.googleLink = { issued, send in try await googleClient.link(issued, send: send) } }

        let display = ProgressDisplay(
            mode: quiet || json ? .silent : (isatty(STDERR_FILENO) == 1 ? .terminal : .lines),
            total: quiet || json ? nil : BatchInput.estimatedRowCount(path: data))
        let batch = runner
        let run = { try await batch.run(input, plan: plan, stop: stop) { display.update($0) } }
        let result: BatchProgress
        do {
            result = if let database { try await database.whileRunning { _ in try await run() } } else { try await run() }
        } catch {
            recordLog?.flush()
            await googleClient?.shutdown()
            throw error
        }
        interrupt.cancel()
        recordLog?.flush()
        await googleClient?.shutdown()
        display.finish(result)
        let reportPath = BatchReportWriter.path(folder: reportFolder, format: options.reportFormat, shard: options.shard)
        if !json { summarize(result, report: out != nil && outDir == nil ? nil : reportPath) }
        if out != nil && outDir == nil { try? FileManager.default.removeItem(atPath: reportFolder) }  // it went out in the stream

        if json {
            let summary: JSONValue = [
                "rows": .number(JSONNumber(result.rows)), "issued": .number(JSONNumber(result.issued)),
                "existing": .number(JSONNumber(result.existing)), "failed": .number(JSONNumber(result.failed)),
                "recorded": .number(JSONNumber(result.recorded)),
                "seconds": .number(JSONNumber((result.elapsed * 1000).rounded() / 1000)),
                "passesPerSecond": .number(JSONNumber(result.passesPerSecond.rounded())), "bytes": .number(JSONNumber(result.bytes)),
                "stopped": .bool(result.stopped), "reissued": .number(JSONNumber(result.reissued)),
                "changedAtService": .number(JSONNumber(result.changedAtService)),
                "report": .string(reportPath),
            ]
            print(JSONWriter.string(summary), terminator: "")
        }
        if result.stopped { throw ExitCode(130) }
        if result.failed > 0 { throw ExitCode(1) }
    }
}
