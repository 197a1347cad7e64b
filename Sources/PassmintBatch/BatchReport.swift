import Foundation
public import Passmint

/// The outcome of one row.
public struct BatchResult: Sendable {
    public enum Status: String, Sendable {
        /// A pass was built and written.
        case issued
        /// `--resume` found a valid pass from an earlier run.
        case existing
        /// Recorded for lazy issuing (`--no-files`): signed when first fetched.
        case recorded
        /// The row was reported and skipped.
        case failed
        /// With `--register`: the stored pass changed at the service (an `update`, a PATCH) since the batch recorded
        /// it, so the row was left as the service has it: its earlier pass file is kept and the store is not written.
        case changedAtService = "changed-at-service"
    }

    public var row: Int
    public var serialNumber: String
    public var status: Status
    /// The pass file, relative to the output folder.
    public var file: String
    /// Lowercase hex SHA-256 of the pass file.
    public var sha256: String
    public var authenticationToken: String
    /// Why the row failed.
    public var error: String
    /// Size of the pass in bytes.
    public var bytes: Int
    /// The pass's public download link and "Add to Apple Wallet" page, when the batch makes links.
    public var downloadURL = ""
    public var addURL = ""
    /// The pass's "Add to Google Wallet" link, with `--google`.
    public var googleSaveURL = ""
    /// The pass as the store records it.
    var issued: BatchRunner.IssuedPass?
    /// Why the row failed, the same for every row with this problem (for ``FailureSummary``).
    var reason = ""
    /// With `--resume`: an earlier run's pass whose row changed, issued again.
    var reissued = false
    /// The signed pass, on its way from a worker to an archive or tar stream (``BatchPassSink``).
    var archive: PassArchive?

    static func failure(row: Int, serial: String = "", _ message: String, reason: String? = nil) -> BatchResult {
        var result = BatchResult(
            row: row, serialNumber: serial, status: .failed, file: "", sha256: "", authenticationToken: "", error: message, bytes: 0)
        result.reason = reason ?? FailureSummary.reason(of: message)
        return result
    }
}

/// `batch-report.csv` (or `.jsonl`): one line per input row, in input order — the file a marketing team mails from
/// and the update service imports. It holds authentication tokens, so it is written with mode 0600.
public final class BatchReportWriter {
    public enum Format: String, Sendable {
        case csv, jsonl
    }

    public let path: String
    private let handle: FileHandle
    private let format: Format
    private var pending = Data()

    public static let columns = ["row", "serialNumber", "status", "file", "sha256", "authenticationToken", "error"]
    /// The columns added when the batch makes links.
    public static let linkColumns = ["downloadURL", "addURL"]
    /// The column added with `--google`.
    public static let googleColumn = "googleSaveURL"
    /// This report's columns.
    public let columns: [String]

    /// With a `shard`, the report is `batch-report.shard-3-of-8.csv`, and only shard 0 writes the CSV header, so that
    /// `cat batch-report.shard-*` makes the whole report.
    public init(folder: String, format: Format, links: Bool = false, google: Bool = false, shard: BatchShard? = nil)
        throws(PassmintError)
    {
        path = Self.path(folder: folder, format: format, shard: shard)
        self.format = format
        columns = Self.columns + (links ? Self.linkColumns : []) + (google ? [Self.googleColumn] : [])
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PassmintError(.fileSystem, "cannot write \(path): \(String(cString: strerror(errno)))") }
        fchmod(fd, 0o600)
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        if format == .csv, (shard?.index ?? 0) == 0 { pending.append(contentsOf: (columns.joined(separator: ",") + "\n").utf8) }
    }

    /// Where the report of a batch into `folder` goes.
    public static func path(folder: String, format: Format, shard: BatchShard? = nil) -> String {
        let suffix = shard.map { ".shard-\($0.index)-of-\($0.count)" } ?? ""
        return folder + "/batch-report" + suffix + "." + format.rawValue
    }

    public func write(_ result: BatchResult) {
        var values = [
            String(result.row), result.serialNumber, result.status.rawValue, result.file, result.sha256, result.authenticationToken,
            result.error,
        ]
        if columns.contains(Self.linkColumns[0]) { values += [result.downloadURL, result.addURL] }
        if columns.last == Self.googleColumn { values.append(result.googleSaveURL) }
        switch format {
        case .csv:
            pending.append(contentsOf: (values.map(CSVReader.escape).joined(separator: ",") + "\n").utf8)
        case .jsonl:
            var object = JSONObject()
            for (column, value) in zip(columns, values) {
                object[column] = column == "row" ? .number(JSONNumber(result.row)) : .string(value)
            }
            pending.append(contentsOf: JSONWriter.data(.object(object), style: .compact))
            pending.append(0x0A)
        }
        if pending.count > 1 << 16 { flush() }
    }

    /// Writes buffered lines to the file and to disk.
    public func flush() {
        if !pending.isEmpty {
            try? handle.write(contentsOf: pending)
            pending.removeAll(keepingCapacity: true)
        }
        try? handle.synchronize()
    }

    deinit { flush() }
}
