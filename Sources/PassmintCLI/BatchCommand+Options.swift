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

    /// The checks of the options alone (no file or variable read: those are ``checkBeforeRun(project:)``'s).
    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let out, out != "-" {
            throw ValidationError(
                "--out takes - (standard output, as a tar stream); for files give --out-dir \(out), for one archive --out-archive")
        }
        if out != nil && outArchive != nil { throw ValidationError("give either --out - or --out-archive, not both") }
        if out != nil && json {
            throw ValidationError("--out - writes the passes to standard output: leave out --json, or write to --out-archive")
        }
        if output != .folder && (register != nil || registerEnv != nil || noFiles) {
            throw ValidationError(
                "--register and --no-files go with --out-dir: a pass recorded in the store must be in its file when the run ends or resumes"
            )
        }
        if register != nil && registerEnv != nil { throw ValidationError("use either --register or --register-env, not both") }
        if noFiles && register == nil && registerEnv == nil {
            throw ValidationError(
                "--no-files records passes for the service to sign later: give --register <database-url> or --register-env VAR too")
        }
        if noFiles && resume { throw ValidationError("--no-files needs no --resume: run it again, and rows recorded already are kept") }
    }

    /// The checks that read the project file and the environment, before anything runs.
    func checkBeforeRun(project: ProjectFile?) throws {
        if out == nil && outArchive == nil && outDir == nil && project?.outDir == nil {
            throw ValidationError(
                "say where the passes go: --out-dir DIR (a file per pass), --out-archive cards.zip, or --out - (a tar stream)")
        }
        if let registerEnv, ProcessInfo.processInfo.environment[registerEnv]?.isEmpty ?? true {
            throw ValidationError(
                "--register-env \(registerEnv): the environment variable \(registerEnv) is not set; set it to the database URL")
        }
    }
}
