import Foundation
import Passmint

/// Settings of a batch run.
public struct BatchOptions: Sendable {
    /// Where the report goes, and the passes with ``BatchOutput/folder``; created when missing.
    public var outputFolder: String
    /// Passes built at once; defaults to the number of cores.
    public var jobs: Int
    /// The column (or JSON key) holding each pass's serial number.
    public var serialColumn: String
    /// Keep passes from an earlier run that exist and verify, instead of building them again.
    public var resume: Bool
    public var reportFormat: BatchReportWriter.Format
    /// Written into every pass as `webServiceURL`, over the template's (the update service's public URL, for passes
    /// it will keep up to date). With a web service URL, from here or from the template, every pass gets its own
    /// authentication token unless its row gives one.
    public var webServiceURL: String?
    /// Lazy issuing (`passmint batch --no-files`): every row is rendered and checked as for a pass, then handed to
    /// ``BatchRunner/registerMany`` in chunks; nothing is signed or written but the report. The service signs each
    /// pass the first time someone fetches it.
    public var recordOnly: Bool
    /// Only the rows of this shard (``BatchShard``); nil for all of them.
    public var shard: BatchShard?
    /// Where the passes go: files in ``outputFolder`` (which always holds the report), one archive, or a tar stream.
    public var output: BatchOutput
    /// Folders besides the data file's that `image:` cells may name files in (`--images-from`); absolute paths must
    /// lie in one of them.
    public var imageFolders: [String] = []

    /// Which column feeds which placeholder (`--map`); columns it does not name are matched by name.
    public var mapping = ColumnMapping()
    /// Where ``mapping`` came from, for messages: `--map`, a mapping file, a project file.
    public var mappingSource = "--map"
    /// How the file writes numbers, dates and yes/no values (`--locale`, `--date-format`, `--time-zone`).
    public var format = SpreadsheetFormat()
    /// Placeholders whose value must not be empty (`--require`): a row with one empty fails.
    public var required: [String] = []

    /// `jobs` defaults to the number of cores.
    public init(
        outputFolder: String, jobs: Int? = nil, serialColumn: String = "serialNumber",
        resume: Bool = false, reportFormat: BatchReportWriter.Format = .csv, webServiceURL: String? = nil, recordOnly: Bool = false,
        shard: BatchShard? = nil, output: BatchOutput = .folder
    ) {
        self.outputFolder = outputFolder
        self.jobs = max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        self.serialColumn = serialColumn
        self.resume = resume
        self.reportFormat = reportFormat
        self.webServiceURL = webServiceURL
        self.recordOnly = recordOnly
        self.shard = shard
        self.output = output
    }
}
