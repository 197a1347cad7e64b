import Foundation
import PassmintTestSupport

/// A `passmint serve` process of the campaign, its output in a log file. It binds port 0, and the port the system
/// gave it is read from the line `serve` prints once listening.
final class CampaignNode: @unchecked Sendable {
    let process = Process()
    /// Known once ``waitUntilHealthy()`` has read it (set only there, before the node is shared).
    private(set) var port = 0
    let log: URL
    let arguments: [String]
    let binary: String
    let apiKey: String
    let folder: URL
    var base: String { "http://127.0.0.1:\(port)" }
    var output: String { (try? String(contentsOf: log, encoding: .utf8)).map { String($0.suffix(4000)) } ?? "" }

    init(binary: String, arguments: [String], apiKey: String, folder: URL) throws {
        self.binary = binary
        self.arguments = arguments
        self.apiKey = apiKey
        self.folder = folder
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments + ["--port", "0"]
        // Nodes log at `notice` unless the campaign is run with a LOG_LEVEL (`info` shows each push round's timings).
        process.environment = ["LOG_LEVEL": "notice"].merging(ProcessInfo.processInfo.environment) { $1 }.merging([
            "PASSMINT_API_KEY": apiKey
        ]) { $1 }
        log = folder.appendingPathComponent("node-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = process.standardOutput
        try process.run()
    }

    func waitUntilHealthy() -> Bool {
        // A deadline, not a count of tries: a debug build starting beside the whole test suite on two cores has
        // taken over a minute (its start lints every template and migrates the store).
        let deadline = Date().addingTimeInterval(Self.startLimit)
        guard let port = listeningPort(before: deadline) else { return false }
        self.port = port
        while Date() < deadline {
            if (try? TestEnvironment.run("curl", ["-sf", "--max-time", "5", base + "/health"]))?.stdout == "ok\n" { return true }
            if !process.isRunning { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// How long a node may take to answer `/health` after it was started.
    static let startLimit: TimeInterval = 300

    /// The port of the `listening on http://127.0.0.1:PORT` line, once the log has it; nil when the process ends first
    /// or the deadline passes.
    private func listeningPort(before deadline: Date) -> Int? {
        while Date() < deadline {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on http://") }),
                let port = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                return port
            }
            if !process.isRunning { return nil }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    /// SIGTERM, and the node's exit; a node that has not stopped two minutes later is killed and named (a node that
    /// never stops would otherwise hold the run, and the test suite, for good).
    func stop() throws {
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline { usleep(100_000) }
        guard process.isRunning else { return process.waitUntilExit() }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw CampaignError("a node did not stop within 120 s of SIGTERM (killed); its log ends:\n\(output.suffix(2000))")
    }

    /// SIGKILL: nothing flushed, nothing finished.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The same node started again on the same database and jobs folder (on a port of its own).
    func restarted() throws -> CampaignNode {
        try CampaignNode(binary: binary, arguments: arguments, apiKey: apiKey, folder: folder)
    }
}
