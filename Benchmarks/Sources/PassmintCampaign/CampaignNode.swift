import Foundation

/// A `passmint serve` process of the campaign, its output in a log file.
final class CampaignNode: @unchecked Sendable {
    let process = Process()
    let port: Int
    let log: URL
    let arguments: [String]
    let binary: String
    let apiKey: String
    let folder: URL
    var base: String { "http://127.0.0.1:\(port)" }
    var output: String { (try? String(contentsOf: log, encoding: .utf8)).map { String($0.suffix(4000)) } ?? "" }

    init(binary: String, arguments: [String], port: Int, apiKey: String, folder: URL) throws {
        self.binary = binary
        self.arguments = arguments
        self.port = port
        self.apiKey = apiKey
        self.folder = folder
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments + ["--port", String(port)]
        process.environment = ProcessInfo.processInfo.environment.merging(["PASSMINT_API_KEY": apiKey, "LOG_LEVEL": "notice"]) { $1 }
        log = folder.appendingPathComponent("node-\(port)-\(UUID().uuidString.prefix(6)).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = process.standardOutput
        try process.run()
    }

    func waitUntilHealthy() -> Bool {
        for _ in 0..<600 {
            if (try? Shell.run("curl", ["-sf", "--max-time", "5", base + "/health"]))?.stdout == "ok\n" { return true }
            if !process.isRunning { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// SIGKILL: nothing flushed, nothing finished.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The same node started again on the same port, database and jobs folder.
    func restarted() throws -> CampaignNode {
        try CampaignNode(binary: binary, arguments: arguments, port: port, apiKey: apiKey, folder: folder)
    }
}
