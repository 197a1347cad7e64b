import ArgumentParser
import Foundation
import Passmint
import PassmintBatch
import PassmintServer

/// Where `batch` writes, and the checks on its options before anything runs.
extension BatchCommand {
    /// The report's folder, and the passes' with the default output.
    var reportFolder: String {
        if let outDir { return outDir }
        if let outArchive { return URL(fileURLWithPath: outArchive).deletingLastPathComponent().path }
        return FileManager.default.temporaryDirectory.appendingPathComponent("passmint-batch-\(getpid())").path
    }

    var output: BatchOutput {
        if let outArchive { return .archive(path: outArchive) }
        if out != nil { return .tarStream(fileDescriptor: STDOUT_FILENO) }
        return .folder
    }

    static func delimiterByte(_ text: String) -> UInt8? {
        switch text.lowercased() {
        case ",", "comma": UInt8(ascii: ",")
        case ";", "semicolon": UInt8(ascii: ";")
        case "tab", "\t", "\\t": UInt8(ascii: "\t")
        case "|", "pipe": UInt8(ascii: "|")
        default: nil
        }
    }

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let out, out != "-" {
            throw ValidationError(
                "--out takes - (standard output, as a tar stream); for files give --out-dir \(out), for one archive --out-archive")
        }
        if out != nil && outArchive != nil { throw ValidationError("give either --out - or --out-archive, not both") }
        // A project file that cannot be read says why here, not that the output folder is missing.
        if out == nil && outArchive == nil && outDir == nil, try ProjectFile.load(project)?.outDir == nil {
            throw ValidationError(
                "say where the passes go: --out-dir DIR (a file per pass), --out-archive cards.zip, or --out - (a tar stream)")
        }
        if out != nil && json {
            throw ValidationError("--out - writes the passes to standard output: leave out --json, or write to --out-archive")
        }
        if output != .folder && (register != nil || registerEnv != nil || noFiles) {
            throw ValidationError(
                "--register and --no-files go with --out-dir: a pass recorded in the store must be in its file when the run ends or resumes"
            )
        }
        if let shard, BatchShard(shard) == nil {
            throw ValidationError(
                "--shard \(shard) is not a shard: give i/n with 0 ≤ i < n, e.g. --shard 0/4 … --shard 3/4 (in a Kubernetes Indexed Job, --shard $JOB_COMPLETION_INDEX/n)"
            )
        }
        if let delimiter, Self.delimiterByte(delimiter) == nil {
            throw ValidationError(
                "--delimiter \(delimiter) is not a delimiter Passmint reads: give comma, semicolon, tab or pipe (',' ';' 'tab' '|')")
        }
        if let encoding, TextEncoding(name: encoding) == nil {
            throw ValidationError(
                "--encoding \(encoding) is not an encoding Passmint reads: give utf-8, windows-1252, utf-16le or utf-16be")
        }
        guard BatchReportWriter.Format(rawValue: report) != nil else { throw ValidationError("--report must be csv or jsonl") }
        if register != nil && registerEnv != nil { throw ValidationError("use either --register or --register-env, not both") }
        if let registerEnv, ProcessInfo.processInfo.environment[registerEnv]?.isEmpty ?? true {
            throw ValidationError(
                "--register-env \(registerEnv): the environment variable \(registerEnv) is not set; set it to the database URL")
        }
        if noFiles && registerURL == nil {
            throw ValidationError(
                "--no-files records passes for the service to sign later: give --register <database-url> or --register-env VAR too")
        }
        if noFiles && resume { throw ValidationError("--no-files needs no --resume: run it again, and rows recorded already are kept") }
        if let linkLifetime, ServerConfiguration.duration(linkLifetime) == nil {
            throw ValidationError(
                "--link-lifetime \(linkLifetime) is not a duration: give seconds, or a number followed by m, h or d (e.g. 30d)")
        }
    }

}
